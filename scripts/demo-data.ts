import { hashApiKey, visiblePrefix } from "../src/auth/api-keys.ts";
import { hashPassword } from "../src/auth/passwords.ts";
import { demoBusinessStatements } from "./demo-business.ts";
import { sqlQuote as quote } from "./sql.ts";

/**
 * Demo workshops, people and fixed development keys for local use only, and the deployment's
 * operator key. `npm run dev` loads them with `wrangler d1 execute --local`; tests load the same rows.
 */
export const DEMO = {
  tenants: [
    { id: "t-jinxiu", name: "锦绣制衣" },
    { id: "t-other", name: "华美服饰" },
  ],
  users: [
    {
      id: "u-admin",
      tenantId: "t-jinxiu",
      name: "平台管理员",
      role: "admin",
      key: "dev-admin-key",
      confirmBy: "agent",
      username: "admin",
      password: "admin123",
    },
    {
      id: "u-boss",
      tenantId: "t-jinxiu",
      name: "王老板",
      role: "boss",
      key: "dev-boss-key",
      confirmBy: "agent",
      username: "boss",
      password: "boss123",
    },
    {
      id: "u-staff",
      tenantId: "t-jinxiu",
      name: "李娟",
      role: "staff",
      key: "dev-staff-key",
      confirmBy: "weft",
      username: "staff",
      password: "staff123",
    },
    {
      id: "u-staff2",
      tenantId: "t-jinxiu",
      name: "张敏",
      role: "staff",
      key: "dev-staff2-key",
      confirmBy: "weft",
      username: "staff2",
      password: "staff123",
    },
    {
      id: "u-other-boss",
      tenantId: "t-other",
      name: "陈老板",
      role: "boss",
      key: "dev-other-boss-key",
      confirmBy: "weft",
      username: "otherboss",
      password: "boss123",
    },
  ],
  /** The deployment's operator (`/api/admin`): a credential outside every workshop. */
  operators: [{ id: "op-dev", name: "development operator", key: "dev-operator-key" }],
} as const;

/**
 * Idempotent SQL statements (one per line) that put the demo rows in place. They are upserts that
 * never delete: `INSERT OR REPLACE` deletes the old row first, and `ON DELETE CASCADE` would take
 * every knowledge base, document, key, session and chat of the workshop with it on each
 * `npm run dev`. A password someone has changed is kept.
 */
export async function demoSeedStatements(): Promise<string[]> {
  const statements: string[] = [];
  for (const t of DEMO.tenants) {
    statements.push(
      `INSERT INTO tenants (id, name) VALUES (${quote(t.id)}, ${quote(t.name)}) ON CONFLICT (id) DO UPDATE SET name = excluded.name;`,
    );
  }
  for (const u of DEMO.users) {
    statements.push(
      `INSERT INTO users (id, tenant_id, name, role, username, password_hash) VALUES (${quote(u.id)}, ${quote(u.tenantId)}, ${quote(u.name)}, ${quote(u.role)}, ${quote(u.username)}, ${quote(await hashPassword(u.password))}) ON CONFLICT (id) DO UPDATE SET name = excluded.name, role = excluded.role, username = COALESCE(users.username, excluded.username), password_hash = COALESCE(users.password_hash, excluded.password_hash);`,
    );
    statements.push(
      `INSERT OR IGNORE INTO api_keys (id, tenant_id, user_id, name, prefix, key_hash, confirm_by) VALUES (${quote(`k-${u.id}`)}, ${quote(u.tenantId)}, ${quote(u.id)}, 'development key', ${quote(visiblePrefix(u.key))}, ${quote(await hashApiKey(u.key))}, ${quote(u.confirmBy)});`,
    );
  }
  for (const o of DEMO.operators) {
    statements.push(
      `INSERT OR IGNORE INTO operator_keys (id, name, prefix, key_hash) VALUES (${quote(o.id)}, ${quote(o.name)}, ${quote(visiblePrefix(o.key))}, ${quote(await hashApiKey(o.key))});`,
    );
  }
  statements.push(...demoBusinessStatements());
  return statements;
}
