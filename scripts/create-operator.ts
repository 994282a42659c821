// npm run operator:create -- [--name NAME] [--remote]
// Creates a key for the deployment's operator (invite codes, the list of workshops: /api/admin) and
// prints it once. Locally by default (into WEFT_STATE_DIR if set); with --remote it writes to the
// production D1 (after `wrangler login`). An operator key belongs to no workshop and reads none.
import { parseArgs } from "node:util";
import { hashApiKey, visiblePrefix } from "../src/auth/api-keys.ts";
import { generateOperatorKey } from "../src/auth/operator-keys.ts";
import { executeSql, requireNode22 } from "./lib.ts";
import { sqlQuote } from "./sql.ts";

requireNode22();
const { values } = parseArgs({
  options: {
    name: { type: "string", default: "operator" },
    remote: { type: "boolean", default: false },
  },
});
const key = generateOperatorKey();
const q = sqlQuote;
const statement = `INSERT INTO operator_keys (id, name, prefix, key_hash) VALUES (${q(crypto.randomUUID())}, ${q(values.name)}, ${q(visiblePrefix(key))}, ${q(await hashApiKey(key))});`;
const persistTo = process.env.WEFT_STATE_DIR;
const local = ["--local", ...(persistTo ? ["--persist-to", persistTo] : [])];
executeSql("create-operator", [statement], values.remote ? ["--remote", "--env", "production"] : local);
console.log(`Operator key '${values.name}' created.\nOperator key (shown once, store it now): ${key}`);
