import { notFound } from "../errors.ts";
import { fromRow, type Row, type ServerRecord } from "./server-store.ts";

/**
 * Stores a server's sealed OAuth state (client, tokens, verifier) and whether it needs a person to
 * sign in, and ends any refresh in progress. With `expected`, only if the stored state is still the
 * one that was read (compare-and-swap): a request never overwrites tokens another one stored since.
 * Returns whether the row was written.
 */
export async function saveOAuth({
  db,
  tenantId,
  id,
  sealed,
  needsSignIn,
  expected,
}: {
  db: D1Database;
  tenantId: string;
  id: string;
  sealed: string | null;
  needsSignIn: boolean;
  expected?: string | null;
}): Promise<boolean> {
  const unchanged = expected === undefined ? "" : " AND oauth_sealed IS ?";
  const result = await db
    .prepare(
      `UPDATE mcp_servers SET oauth_sealed = ?, needs_sign_in = ?, oauth_refresh_until = NULL
       WHERE id = ? AND tenant_id = ?${unchanged}`,
    )
    .bind(sealed, needsSignIn ? 1 : 0, id, tenantId, ...(expected === undefined ? [] : [expected]))
    .run();
  return result.meta.changes > 0;
}

/**
 * Claims the right to refresh a server's tokens for `leaseSeconds`: only while no other request
 * holds it and the stored state is still `expected`. Returns whether this request got it.
 */
export async function claimRefresh({
  db,
  tenantId,
  id,
  expected,
  leaseSeconds,
}: {
  db: D1Database;
  tenantId: string;
  id: string;
  expected: string | null;
  leaseSeconds: number;
}): Promise<boolean> {
  const result = await db
    .prepare(
      `UPDATE mcp_servers SET oauth_refresh_until = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)
       WHERE id = ? AND tenant_id = ? AND oauth_sealed IS ?
         AND (oauth_refresh_until IS NULL OR oauth_refresh_until <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
    )
    .bind(`+${leaseSeconds} seconds`, id, tenantId, expected)
    .run();
  return result.meta.changes > 0;
}

/** Gives up a refresh claim without changing the stored state (the refresh failed for a passing reason). */
export async function releaseRefresh({ db, tenantId, id }: { db: D1Database; tenantId: string; id: string }): Promise<void> {
  await db.prepare("UPDATE mcp_servers SET oauth_refresh_until = NULL WHERE id = ? AND tenant_id = ?").bind(id, tenantId).run();
}

/** The server's sealed OAuth state and sign-in flag as stored now; 404 once the server is gone. */
export async function currentOAuth({
  db,
  tenantId,
  id,
}: {
  db: D1Database;
  tenantId: string;
  id: string;
}): Promise<{ sealed: string | null; needsSignIn: boolean }> {
  const row = await db
    .prepare("SELECT oauth_sealed, needs_sign_in FROM mcp_servers WHERE id = ? AND tenant_id = ?")
    .bind(id, tenantId)
    .first<{ oauth_sealed: string | null; needs_sign_in: number }>();
  if (!row) throw notFound("No MCP server with this id in your workshop.");
  return { sealed: row.oauth_sealed, needsSignIn: row.needs_sign_in === 1 };
}

/** Remembers a sign-in in progress by the hash of its state, valid for `ttlSeconds`. */
export async function saveSignInState({
  db,
  tenantId,
  id,
  stateHash,
  ttlSeconds,
}: {
  db: D1Database;
  tenantId: string;
  id: string;
  stateHash: string;
  ttlSeconds: number;
}): Promise<void> {
  await db
    .prepare(
      `UPDATE mcp_servers SET oauth_state_hash = ?, oauth_state_expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)
       WHERE id = ? AND tenant_id = ?`,
    )
    .bind(stateHash, `+${ttlSeconds} seconds`, id, tenantId)
    .run();
}

/** What an unknown, used or expired sign-in state is told. */
export const UNKNOWN_STATE = "This sign-in link is unknown, used or expired. Start the sign-in again.";

/**
 * The server a sign-in's state belongs to, leaving the state in place: the callback first checks
 * who is completing it, and a refused person must not spend the link. Unknown or expired is 404.
 */
export async function findSignInState({
  db,
  tenantId,
  stateHash,
}: {
  db: D1Database;
  tenantId: string;
  stateHash: string;
}): Promise<ServerRecord> {
  const row = await db
    .prepare(
      `SELECT * FROM mcp_servers
       WHERE oauth_state_hash = ? AND tenant_id = ? AND oauth_state_expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    )
    .bind(stateHash, tenantId)
    .first<Row>();
  if (!row) throw notFound(UNKNOWN_STATE);
  return fromRow(row);
}

/**
 * Takes a sign-in's state from the server `findSignInState` found, once: the state is cleared in
 * the same statement, so a replayed or concurrent callback finds nothing. Gone meanwhile is 404.
 */
export async function takeSignInState({
  db,
  stateHash,
  tenantId,
  id,
}: {
  db: D1Database;
  stateHash: string;
  tenantId: string;
  id: string;
}): Promise<ServerRecord> {
  const row = await db
    .prepare(
      `UPDATE mcp_servers SET oauth_state_hash = NULL, oauth_state_expires_at = NULL
       WHERE oauth_state_hash = ? AND id = ? AND tenant_id = ?
         AND oauth_state_expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now') RETURNING *`,
    )
    .bind(stateHash, id, tenantId)
    .first<Row>();
  if (!row) throw notFound(UNKNOWN_STATE);
  return fromRow(row);
}
