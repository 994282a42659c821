import { sha256Hex } from "../sha256.ts";
import type { Role, UserContext } from "../user-context.ts";
import { randomToken } from "./random-token.ts";

/** How long a browser stays signed in without signing in again. */
export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;

/** A signed-in person as the browser sees them. */
export interface WebUser {
  id: string;
  name: string;
  role: Role;
  tenant_id: string;
  tenant_name: string;
}

/**
 * The user a username (in its canonical form, `canonicalUsername`) names, with their password hash
 * and whether they were deactivated; `null` when nobody has that username.
 */
export async function findUserByUsername({
  db,
  username,
}: {
  db: D1Database;
  username: string;
}): Promise<(WebUser & { password_hash: string | null; deactivated_at: string | null }) | null> {
  return db
    .prepare(
      `SELECT u.id, u.name, u.role, u.tenant_id, t.name AS tenant_name, u.password_hash, u.deactivated_at
         FROM users u JOIN tenants t ON t.id = u.tenant_id
        WHERE u.username = ?1`,
    )
    .bind(username)
    .first<WebUser & { password_hash: string | null; deactivated_at: string | null }>();
}

/** An active user of a workshop as the browser sees them; `null` when there is none. */
export async function findWebUser({
  db,
  userId,
  tenantId,
}: {
  db: D1Database;
  userId: string;
  tenantId: string;
}): Promise<WebUser | null> {
  return db
    .prepare(
      `SELECT u.id, u.name, u.role, u.tenant_id, t.name AS tenant_name
         FROM users u JOIN tenants t ON t.id = u.tenant_id
        WHERE u.id = ?1 AND u.tenant_id = ?2 AND u.deactivated_at IS NULL`,
    )
    .bind(userId, tenantId)
    .first<WebUser>();
}

/**
 * Starts a session for a user: a fresh random token for the cookie, of which only the hash is
 * stored. The user's expired sessions are cleared in the same batch.
 */
export async function createWebSession({ db, user }: { db: D1Database; user: WebUser }): Promise<string> {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + SESSION_TTL_SECONDS * 1000).toISOString();
  await db.batch([
    db
      .prepare(`DELETE FROM web_sessions WHERE user_id = ?1 AND expires_at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`)
      .bind(user.id),
    db
      .prepare(`INSERT INTO web_sessions (token_hash, user_id, tenant_id, expires_at) VALUES (?1, ?2, ?3, ?4)`)
      .bind(await sha256Hex(token), user.id, user.tenant_id, expiresAt),
  ]);
  return token;
}

/** The signed-in user of a cookie token; `null` for unknown, ended or expired sessions, and deactivated people. */
export async function findWebSession({
  db,
  token,
}: {
  db: D1Database;
  token: string;
}): Promise<(UserContext & { user: WebUser }) | null> {
  const row = await db
    .prepare(
      `SELECT u.id, u.name, u.role, u.tenant_id, t.name AS tenant_name
         FROM web_sessions s
         JOIN users u ON u.id = s.user_id AND u.tenant_id = s.tenant_id
         JOIN tenants t ON t.id = u.tenant_id
        WHERE s.token_hash = ?1 AND s.expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now') AND u.deactivated_at IS NULL`,
    )
    .bind(await sha256Hex(token))
    .first<WebUser>();
  if (!row) return null;
  return { userId: row.id, tenantId: row.tenant_id, role: row.role, user: row };
}

/** Ends a session server-side, so a copied cookie stops working too. */
export async function endWebSession({ db, token }: { db: D1Database; token: string }): Promise<void> {
  await db
    .prepare(`DELETE FROM web_sessions WHERE token_hash = ?1`)
    .bind(await sha256Hex(token))
    .run();
}
