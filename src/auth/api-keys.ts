import { returningRow } from "../db.ts";
import { notFound } from "../errors.ts";
import { sha256Hex } from "../sha256.ts";
import type { Role, UserContext } from "../user-context.ts";

const KEY_PREFIX = "wft_";
const VISIBLE_PREFIX_LENGTH = 12;

/** Lowercase hex SHA-256 of a key: what the database stores and looks keys up by. */
export function hashApiKey(key: string): Promise<string> {
  return sha256Hex(key);
}

/** The part of a key shown in lists, enough to tell keys apart and useless to an attacker. */
export function visiblePrefix(key: string): string {
  return key.slice(0, VISIBLE_PREFIX_LENGTH);
}

/** A fresh random key: `wft_` and 32 URL-safe characters (192 bits). */
export function generateApiKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  const body = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
  return `${KEY_PREFIX}${body}`;
}

export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  user_id: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** Resolves a presented key to its caller; `null` for unknown or revoked keys. */
export async function findUserByApiKey({
  db,
  key,
}: {
  db: D1Database;
  key: string;
}): Promise<(UserContext & { keyId: string }) | null> {
  const row = await db
    .prepare(
      `SELECT k.id AS key_id, u.id AS user_id, u.tenant_id, u.role
         FROM api_keys k JOIN users u ON u.id = k.user_id AND u.tenant_id = k.tenant_id
        WHERE k.key_hash = ?1 AND k.revoked_at IS NULL`,
    )
    .bind(await hashApiKey(key))
    .first<{ key_id: string; user_id: string; tenant_id: string; role: Role }>();
  if (!row) return null;
  return { keyId: row.key_id, userId: row.user_id, tenantId: row.tenant_id, role: row.role };
}

/** Records use without making the request wait on it. */
export function touchApiKey({ db, keyId }: { db: D1Database; keyId: string }): Promise<unknown> {
  return db.prepare(`UPDATE api_keys SET last_used_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1`).bind(keyId).run();
}

/**
 * Creates a key for a user of the tenant. The secret is returned here and never again: only its
 * hash is stored.
 */
export async function createApiKey({
  db,
  tenantId,
  userId,
  name,
}: {
  db: D1Database;
  tenantId: string;
  userId: string;
  name: string;
}): Promise<{ key: string; summary: ApiKeySummary }> {
  const user = await db
    .prepare(`SELECT id FROM users WHERE id = ?1 AND tenant_id = ?2`)
    .bind(userId, tenantId)
    .first<{ id: string }>();
  if (!user) throw notFound(`No user '${userId}' in your workshop.`);
  const key = generateApiKey();
  const id = crypto.randomUUID();
  const summary = await returningRow<ApiKeySummary>(
    db
      .prepare(
        `INSERT INTO api_keys (id, tenant_id, user_id, name, prefix, key_hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
       RETURNING id, name, prefix, user_id, created_at, last_used_at, revoked_at`,
      )
      .bind(id, tenantId, userId, name, visiblePrefix(key), await hashApiKey(key)),
  );
  return { key, summary };
}

/** The tenant's keys, newest first, without secrets or hashes. */
export async function listApiKeys({ db, tenantId }: { db: D1Database; tenantId: string }): Promise<ApiKeySummary[]> {
  const { results } = await db
    .prepare(
      `SELECT id, name, prefix, user_id, created_at, last_used_at, revoked_at
         FROM api_keys WHERE tenant_id = ?1 ORDER BY created_at DESC, id`,
    )
    .bind(tenantId)
    .all<ApiKeySummary>();
  return results;
}

/** Revokes one of the tenant's keys; revoking twice is harmless, another tenant's key is unknown. */
export async function revokeApiKey({
  db,
  tenantId,
  keyId,
}: {
  db: D1Database;
  tenantId: string;
  keyId: string;
}): Promise<ApiKeySummary> {
  const row = await db
    .prepare(
      `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        WHERE id = ?1 AND tenant_id = ?2
        RETURNING id, name, prefix, user_id, created_at, last_used_at, revoked_at`,
    )
    .bind(keyId, tenantId)
    .first<ApiKeySummary>();
  if (!row) throw notFound(`No API key '${keyId}' in your workshop.`);
  return row;
}
