// npm run operator:create -- [--name NAME] [--remote]
// Creates a key for the deployment's operator (invite codes, the list of workshops, creating a
// workshop: /api/admin) and prints it once. Locally by default (into WEFT_STATE_DIR if set); with
// --remote it writes to the production D1 (after `wrangler login`). `npm run deploy` makes the
// first one itself. An operator key belongs to no workshop and reads none.
import { parseArgs } from "node:util";
import { hashApiKey, visiblePrefix } from "../src/auth/api-keys.ts";
import { generateOperatorKey } from "../src/auth/operator-keys.ts";
import { executeSql, requireNode22 } from "./lib.ts";
import { sqlQuote } from "./sql.ts";

/** Stores a new operator key's hash in the directory `target` names and returns the key. */
export async function createOperatorKey({ name, target }: { name: string; target: string[] }): Promise<string> {
  const key = generateOperatorKey();
  const q = sqlQuote;
  const statement = `INSERT INTO operator_keys (id, name, prefix, key_hash) VALUES (${q(crypto.randomUUID())}, ${q(name)}, ${q(visiblePrefix(key))}, ${q(await hashApiKey(key))});`;
  executeSql("create-operator", [statement], target);
  return key;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  requireNode22();
  const { values } = parseArgs({
    options: {
      name: { type: "string", default: "operator" },
      remote: { type: "boolean", default: false },
    },
  });
  const persistTo = process.env.WEFT_STATE_DIR;
  const local = ["--local", ...(persistTo ? ["--persist-to", persistTo] : [])];
  const key = await createOperatorKey({ name: values.name, target: values.remote ? ["--remote", "--env", "production"] : local });
  console.log(`Operator key '${values.name}' created.\nOperator key (shown once, store it now): ${key}`);
}
