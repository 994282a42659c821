// npm run keys:create-admin -- --tenant-id ID --tenant-name NAME --name PERSON [--remote]
// Creates the first admin of a workshop and prints their API key once. Locally by default;
// with --remote it writes to the production D1 (after `wrangler login`).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { generateApiKey, hashApiKey, visiblePrefix } from "../src/auth/api-keys.ts";
import { ROOT, requireNode22, wrangler } from "./lib.mjs";

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
const q = (v) => `'${String(v).replace(/'/g, "''")}'`;
const userId = `u-${crypto.randomUUID()}`;
const key = generateApiKey();
const sql = [
  `INSERT OR IGNORE INTO tenants (id, name) VALUES (${q(values["tenant-id"])}, ${q(values["tenant-name"])});`,
  `INSERT INTO users (id, tenant_id, name, role) VALUES (${q(userId)}, ${q(values["tenant-id"])}, ${q(values.name)}, 'admin');`,
  `INSERT INTO api_keys (id, tenant_id, user_id, name, prefix, key_hash) VALUES (${q(crypto.randomUUID())}, ${q(values["tenant-id"])}, ${q(userId)}, 'first admin key', ${q(visiblePrefix(key))}, ${q(await hashApiKey(key))});`,
].join("\n");
const dir = join(ROOT, ".wrangler", "tmp");
mkdirSync(dir, { recursive: true });
const file = join(dir, `create-admin-${Date.now()}.sql`);
writeFileSync(file, sql);
const target = values.remote ? ["--remote", "--env", "production"] : ["--local"];
wrangler(["d1", "execute", "DB", ...target, "--file", file], { quiet: true });
console.log(`Admin ${values.name} created in workshop ${values["tenant-name"]}.\nAPI key (shown once, store it now): ${key}`);
