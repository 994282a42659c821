// npm run keys:create-admin -- --tenant-id ID --tenant-name NAME --name PERSON [--remote]
// Creates the first admin of a workshop and prints their API key once. Locally by default;
// with --remote it writes to the production D1 (after `wrangler login`).
import { parseArgs } from "node:util";
import { generateApiKey, hashApiKey, visiblePrefix } from "../src/auth/api-keys.ts";
import { executeSql, requireNode22 } from "./lib.ts";
import { sqlQuote } from "./sql.ts";

requireNode22();
const { values } = parseArgs({
  options: {
    "tenant-id": { type: "string" },
    "tenant-name": { type: "string" },
    name: { type: "string", default: "Administrator" },
    remote: { type: "boolean", default: false },
  },
});
if (!values["tenant-id"] || !values["tenant-name"]) {
  console.error("Usage: npm run keys:create-admin -- --tenant-id ID --tenant-name NAME [--name PERSON] [--remote]");
  process.exit(2);
}
const userId = `u-${crypto.randomUUID()}`;
const key = generateApiKey();
const q = sqlQuote;
const statements = [
  `INSERT OR IGNORE INTO tenants (id, name) VALUES (${q(values["tenant-id"])}, ${q(values["tenant-name"])});`,
  `INSERT INTO users (id, tenant_id, name, role) VALUES (${q(userId)}, ${q(values["tenant-id"])}, ${q(values.name)}, 'admin');`,
  `INSERT INTO api_keys (id, tenant_id, user_id, name, prefix, key_hash) VALUES (${q(crypto.randomUUID())}, ${q(values["tenant-id"])}, ${q(userId)}, 'first admin key', ${q(visiblePrefix(key))}, ${q(await hashApiKey(key))});`,
];
const persistTo = process.env.WEFT_STATE_DIR;
const local = ["--local", ...(persistTo ? ["--persist-to", persistTo] : [])];
executeSql("create-admin", statements, values.remote ? ["--remote", "--env", "production"] : local);
console.log(`Admin ${values.name} created in workshop ${values["tenant-name"]}.\nAPI key (shown once, store it now): ${key}`);
