import { returningRow } from "../db.ts";
import { forbidden, notFound } from "../errors.ts";
import { type KeyOwner, mayListWorkshopKeys, mayManageKeyOf } from "../permissions.ts";
import { sha256Hex } from "../sha256.ts";
import type { ApiKeySummary, ConfirmBy } from "../shapes.ts";
import type { Role, UserContext } from "../user-context.ts";
import { apiKeyCache, type VerifiedKey } from "./key-cache.ts";
import { randomKey } from "./random-token.ts";

const KEY_PREFIX = "wft_";
const VISIBLE_PREFIX_LENGTH = 12;

/** Lowercase hex SHA-256 of a key: what the database stores and looks keys up by. */
export function hashApiKey(key: string): Promise<string> {
  return sha256Hex(key);
}

/**
 * The part of a key shown in lists, enough to tell keys apart and useless to an attacker: 12
 * characters of a generated key (a third of it), and never more than a third of any key, so a
 * short key (a development key, say) is never shown whole.
 */
export function visiblePrefix(key: string): string {
  return key.slice(0, Math.min(VISIBLE_PREFIX_LENGTH, Math.floor(key.length / 3)));
}

/** A fresh random key: `wft_` and 32 URL-safe characters (192 bits). */
export function generateApiKey(): string {
  return randomKey(KEY_PREFIX);
}

// The owner's name and role are read in subqueries so the same columns serve a SELECT and the
// RETURNING of an INSERT or UPDATE (which may read only the table it changes, and subqueries).
const SUMMARY_COLUMNS = `id, name, prefix, user_id, created_at, last_used_at, revoked_at, confirm_by,
  (SELECT u.name FROM users u WHERE u.id = api_keys.user_id AND u.tenant_id = api_keys.tenant_id) AS user_name,
  (SELECT u.role FROM users u WHERE u.id = api_keys.user_id AND u.tenant_id = api_keys.tenant_id) AS role`;
type SummaryRow = Omit<ApiKeySummary, "agent_confirm">;
const summaryOf = (row: SummaryRow): ApiKeySummary => ({ ...row, agent_confirm: row.confirm_by === "agent" });

/**
 * How stale a key's `last_used_at` may grow before a use records it again. Recording every check
 * against D1 wrote to the directory on most requests of a deployment with many workshops (each
 * key's cache entry in each isolate lives 30 s), and the directory is one database every workshop
 * signs in through.
 */
export const KEY_USE_RECORDED_EVERY_MS = 10 * 60_000;

/**
 * Resolves a presented key to its caller; `null` for unknown or revoked keys and deactivated owners. A key verified in
 * the last 30 s (`KEY_CACHE_TTL_MS`) is answered from the isolate's cache without D1; `record`
 * tells whether D1 was asked and its `last_used_at` is older than `KEY_USE_RECORDED_EVERY_MS`.
 */
export async function findUserByApiKey({
  db,
  key,
}: {
  db: D1Database;
  key: string;
}): Promise<(VerifiedKey & { record: boolean }) | null> {
  const hash = await hashApiKey(key);
  const cached = apiKeyCache.get(hash);
  if (cached) return { ...cached, record: false };
  const row = await db
    .prepare(
      `SELECT k.id AS key_id, k.prefix, k.confirm_by, u.id AS user_id, u.tenant_id, u.role, t.shard, t.move_to IS NOT NULL AS moving,
              k.last_used_at IS NULL OR k.last_used_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?2) AS record
         FROM api_keys k JOIN users u ON u.id = k.user_id AND u.tenant_id = k.tenant_id JOIN tenants t ON t.id = u.tenant_id
        WHERE k.key_hash = ?1 AND k.revoked_at IS NULL AND u.deactivated_at IS NULL`,
    )
    .bind(hash, `-${KEY_USE_RECORDED_EVERY_MS / 1000} seconds`)
    .first<{
      key_id: string;
      prefix: string;
      confirm_by: ConfirmBy;
      user_id: string;
      tenant_id: string;
      role: Role;
      shard: string;
      moving: number;
      record: number;
    }>();
  if (!row) return null;
  const verified: VerifiedKey = {
    keyId: row.key_id,
    prefix: row.prefix,
    confirmBy: row.confirm_by,
    userId: row.user_id,
    tenantId: row.tenant_id,
    role: row.role,
    workshop: { id: row.tenant_id, shard: row.shard, moving: row.moving === 1 },
  };
  apiKeyCache.set(hash, verified);
  return { ...verified, record: row.record === 1 };
}

/** Records use without making the request wait on it. */
export function touchApiKey({ db, keyId }: { db: D1Database; keyId: string }): Promise<unknown> {
  return db.prepare(`UPDATE api_keys SET last_used_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1`).bind(keyId).run();
}

async function findOwner({ db, tenantId, userId }: { db: D1Database; tenantId: string; userId: string }) {
  const row = await db
    .prepare(`SELECT id, role FROM users WHERE id = ?1 AND tenant_id = ?2 AND deactivated_at IS NULL`)
    .bind(userId, tenantId)
    .first<{ id: string; role: Role }>();
  return row ? ({ userId: row.id, tenantId, role: row.role } satisfies KeyOwner) : null;
}

/**
 * Creates a key that signs in as `userId` (the caller when absent), if the caller may
 * (`mayManageKeyOf`): 404 for someone outside the workshop, 403 for anyone else they may not
 * manage. The secret is returned here and never again: only its hash is stored.
 */
export async function createApiKey({
  db,
  actor,
  userId,
  name,
}: {
  db: D1Database;
  actor: UserContext;
  userId: string;
  name: string;
}): Promise<{ key: string; summary: ApiKeySummary }> {
  const tenantId = actor.tenantId;
  const owner = await findOwner({ db, tenantId, userId });
  if (!owner) throw notFound(`No active user '${userId.slice(0, 100)}' in your workshop.`);
  if (!mayManageKeyOf(actor, owner)) {
    throw forbidden(
      actor.role === "admin"
        ? `You may not create a key for '${owner.userId}': their role '${owner.role}' is above yours.`
        : "Only an admin may create a key for another person; create your own key by leaving out user_id.",
    );
  }
  const key = generateApiKey();
  const id = crypto.randomUUID();
  const summary = await returningRow<SummaryRow>(
    db
      .prepare(
        `INSERT INTO api_keys (id, tenant_id, user_id, name, prefix, key_hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
       RETURNING ${SUMMARY_COLUMNS}`,
      )
      .bind(id, tenantId, userId, name, visiblePrefix(key), await hashApiKey(key)),
  );
  return { key, summary: summaryOf(summary) };
}

/**
 * The keys the caller may see, newest first, without secrets or hashes: an admin sees the
 * workshop's, everyone else their own.
 */
export async function listApiKeys({ db, actor }: { db: D1Database; actor: UserContext }): Promise<ApiKeySummary[]> {
  const everyone = mayListWorkshopKeys(actor);
  const { results } = await db
    .prepare(
      `SELECT ${SUMMARY_COLUMNS}
         FROM api_keys WHERE tenant_id = ?1 AND (?2 OR user_id = ?3) ORDER BY created_at DESC, id`,
    )
    .bind(actor.tenantId, everyone ? 1 : 0, actor.userId)
    .all<SummaryRow>();
  return results.map(summaryOf);
}

/**
 * Revokes a key the caller may manage (`mayManageKeyOf`); revoking twice is harmless. A key the
 * caller may not even list (another workshop's, or another person's for a non-admin) is unknown
 * (404); one they see but may not manage is 403. This isolate refuses it at once, others within
 * `KEY_CACHE_TTL_MS`.
 */
export async function revokeApiKey({
  db,
  actor,
  keyId,
}: {
  db: D1Database;
  actor: UserContext;
  keyId: string;
}): Promise<ApiKeySummary> {
  await checkManageable({ db, actor, keyId, doing: "revoke" });
  const row = await db
    .prepare(
      `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        WHERE id = ?1 AND tenant_id = ?2
        RETURNING ${SUMMARY_COLUMNS}`,
    )
    .bind(keyId, actor.tenantId)
    .first<SummaryRow>();
  if (!row) throw unknownKey(keyId);
  apiKeyCache.forget(row.id);
  return summaryOf(row);
}

/**
 * Sets who may say yes to a write prepared with a key (`confirm_by`): for the key's owner, or an
 * admin of its workshop (`mayManageKeyOf`), with the same 404 and 403 as revoking. The route allows
 * it only from a signed-in browser, so a key can never widen this for itself. Takes effect in this
 * isolate at once, in others within `KEY_CACHE_TTL_MS`.
 */
export async function setKeyConfirmBy({
  db,
  actor,
  keyId,
  confirmBy,
}: {
  db: D1Database;
  actor: UserContext;
  keyId: string;
  confirmBy: ConfirmBy;
}): Promise<ApiKeySummary> {
  await checkManageable({ db, actor, keyId, doing: "change" });
  const row = await db
    .prepare(`UPDATE api_keys SET confirm_by = ?3 WHERE id = ?1 AND tenant_id = ?2 RETURNING ${SUMMARY_COLUMNS}`)
    .bind(keyId, actor.tenantId, confirmBy)
    .first<SummaryRow>();
  if (!row) throw unknownKey(keyId);
  apiKeyCache.forget(row.id);
  return summaryOf(row);
}

const unknownKey = (keyId: string) => notFound(`No API key '${keyId.slice(0, 100)}' among yours.`);

/**
 * Refuses a key the caller may not manage: one they may not even list (another workshop's, or
 * another person's for a non-admin) is unknown (404); one they see but may not manage is 403.
 */
async function checkManageable({
  db,
  actor,
  keyId,
  doing,
}: {
  db: D1Database;
  actor: UserContext;
  keyId: string;
  doing: "revoke" | "change";
}): Promise<void> {
  const target = await db
    .prepare(
      `SELECT k.user_id, u.role FROM api_keys k JOIN users u ON u.id = k.user_id AND u.tenant_id = k.tenant_id
        WHERE k.id = ?1 AND k.tenant_id = ?2`,
    )
    .bind(keyId, actor.tenantId)
    .first<{ user_id: string; role: Role }>();
  if (!target || (target.user_id !== actor.userId && !mayListWorkshopKeys(actor))) throw unknownKey(keyId);
  if (!mayManageKeyOf(actor, { userId: target.user_id, tenantId: actor.tenantId, role: target.role })) {
    throw forbidden(`You may not ${doing} this key: its owner's role '${target.role}' is above yours.`);
  }
}
