import { sha256Hex } from "../sha256.ts";
import { randomToken } from "./random-token.ts";

/** How long a one-time set-password link works. */
export const PASSWORD_LINK_TTL_SECONDS = 24 * 60 * 60;

/** The page a link opens; the token rides in the fragment, which browsers never send to a server or in a Referer. */
export const SET_PASSWORD_PATH = "/set-password";

/** Whose password a link sets, as the set-password page greets them. */
export interface PasswordLinkHolder {
  user_id: string;
  tenant_id: string;
  name: string;
  username: string;
  tenant_name: string;
  expires_at: string;
}

/** The link a token makes at Weft's origin. */
export function passwordLinkUrl(origin: string, token: string): string {
  return `${origin}${SET_PASSWORD_PATH}#token=${token}`;
}

/**
 * Makes a fresh one-time link for a person: a 256-bit random token, of which only the hash is
 * stored, valid for 24 hours. It replaces any earlier link of theirs, in the same batch, so only
 * the newest link a boss handed out works.
 */
export async function issuePasswordLink({
  db,
  tenantId,
  userId,
  createdBy,
}: {
  db: D1Database;
  tenantId: string;
  userId: string;
  createdBy: string;
}): Promise<{ token: string; expiresAt: string }> {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + PASSWORD_LINK_TTL_SECONDS * 1000).toISOString();
  await db.batch([
    db.prepare("DELETE FROM password_links WHERE user_id = ?1").bind(userId),
    db
      .prepare("INSERT INTO password_links (token_hash, user_id, tenant_id, created_by, expires_at) VALUES (?1, ?2, ?3, ?4, ?5)")
      .bind(await sha256Hex(token), userId, tenantId, createdBy, expiresAt),
  ]);
  return { token, expiresAt };
}

const VALID_LINK = `l.token_hash = ?1 AND l.expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

/**
 * Whose password a token sets, while its link is unused and unexpired and its person active and
 * able to sign in (has a username); `null` otherwise, whichever the reason.
 */
export async function readPasswordLink({
  db,
  tokenHash,
}: {
  db: D1Database;
  tokenHash: string;
}): Promise<PasswordLinkHolder | null> {
  return db
    .prepare(
      `SELECT u.id AS user_id, u.tenant_id, u.name, u.username, t.name AS tenant_name, l.expires_at
         FROM password_links l JOIN users u ON u.id = l.user_id AND u.tenant_id = l.tenant_id
         JOIN tenants t ON t.id = u.tenant_id
        WHERE ${VALID_LINK} AND u.deactivated_at IS NULL AND u.username IS NOT NULL`,
    )
    .bind(tokenHash)
    .first<PasswordLinkHolder>();
}

/**
 * Sets a password through a link, once: one batch stores the hash, ends every web session of the
 * person (a reset is often because someone else may know the old one) and deletes their links, each
 * statement conditional on the link still being valid. Of two uses of one link at once, one sets
 * the password and the other finds it used. Returns whether the password was set.
 */
export async function usePasswordLink({
  db,
  tokenHash,
  passwordHash,
}: {
  db: D1Database;
  tokenHash: string;
  passwordHash: string;
}): Promise<boolean> {
  const holder = `(SELECT l.user_id FROM password_links l WHERE ${VALID_LINK})`;
  const [updated] = await db.batch([
    db
      .prepare(`UPDATE users SET password_hash = ?2 WHERE id = ${holder} AND deactivated_at IS NULL AND username IS NOT NULL`)
      .bind(tokenHash, passwordHash),
    db.prepare(`DELETE FROM web_sessions WHERE user_id = ${holder}`).bind(tokenHash),
    db.prepare(`DELETE FROM password_links WHERE user_id = ${holder}`).bind(tokenHash),
  ]);
  return (updated?.meta.changes ?? 0) === 1;
}
