import { notFound } from "../errors.ts";
import { fromRow, type Row, type ServerRecord } from "./server-store.ts";

/** Stores a server's sealed OAuth state (client, tokens, verifier) and whether it needs a person to sign in. */
export async function saveOAuth({
  db,
  tenantId,
  id,
  sealed,
  needsSignIn,
}: {
  db: D1Database;
  tenantId: string;
  id: string;
  sealed: string | null;
  needsSignIn: boolean;
}): Promise<void> {
  await db
    .prepare("UPDATE mcp_servers SET oauth_sealed = ?, needs_sign_in = ? WHERE id = ? AND tenant_id = ?")
    .bind(sealed, needsSignIn ? 1 : 0, id, tenantId)
    .run();
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

/**
 * Takes the server a sign-in's state belongs to, once: the state is cleared in the same statement,
 * so a replayed callback finds nothing. An expired or unknown state is 404.
 */
export async function takeSignInState({ db, stateHash }: { db: D1Database; stateHash: string }): Promise<ServerRecord> {
  const row = await db
    .prepare(
      `UPDATE mcp_servers SET oauth_state_hash = NULL, oauth_state_expires_at = NULL
       WHERE oauth_state_hash = ? AND oauth_state_expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now') RETURNING *`,
    )
    .bind(stateHash)
    .first<Row>();
  if (!row) throw notFound("This sign-in link is unknown, used or expired. Start the sign-in again.");
  return fromRow(row);
}
