import { AppError, notFound } from "../errors.ts";
import type { Role } from "../user-context.ts";
import { apiKeyCache } from "./key-cache.ts";

/** A person of a workshop as the directory holds them (the employee link is the workshop's). */
export interface PersonRow {
  id: string;
  tenant_id: string;
  name: string;
  username: string | null;
  role: Role;
  has_password: boolean;
  password_link_pending: boolean;
  created_at: string;
  deactivated_at: string | null;
}

const PERSON_COLUMNS = `id, tenant_id, name, username, role, password_hash IS NOT NULL AS has_password,
  EXISTS (SELECT 1 FROM password_links l WHERE l.user_id = users.id
           AND l.expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) AS password_link_pending,
  created_at, deactivated_at`;

type Row = Omit<PersonRow, "has_password" | "password_link_pending"> & { has_password: number; password_link_pending: number };
const personOf = (row: Row): PersonRow => ({
  ...row,
  has_password: row.has_password === 1,
  password_link_pending: row.password_link_pending === 1,
});

/** The people of a workshop: the active ones first, then by when they were added. */
export async function listPeople({ db, tenantId }: { db: D1Database; tenantId: string }): Promise<PersonRow[]> {
  const { results } = await db
    .prepare(
      `SELECT ${PERSON_COLUMNS} FROM users WHERE tenant_id = ?1
        ORDER BY deactivated_at IS NOT NULL, created_at, id LIMIT 1000`,
    )
    .bind(tenantId)
    .all<Row>();
  return results.map(personOf);
}

/** A person of the workshop by id; another workshop's person, or nobody, is 404 alike. */
export async function findPerson({ db, tenantId, id }: { db: D1Database; tenantId: string; id: string }): Promise<PersonRow> {
  const row = await db
    .prepare(`SELECT ${PERSON_COLUMNS} FROM users WHERE id = ?1 AND tenant_id = ?2`)
    .bind(id, tenantId)
    .first<Row>();
  if (!row) throw notFound(`No person '${id.slice(0, 100)}' in your workshop.`);
  return personOf(row);
}

/** The 409 for a username someone in this Weft already has, naming the field for the browser (`details.field`). */
export const usernameTaken = (username: string) =>
  new AppError("conflict", `The username '${username}' is taken; choose another.`, { details: { field: "username" } });

/** Whether anyone in the deployment has `username` (already in its canonical form). */
export async function usernameExists({ db, username }: { db: D1Database; username: string }): Promise<boolean> {
  return (await db.prepare("SELECT 1 AS taken FROM users WHERE username = ?1").bind(username).first()) !== null;
}

/**
 * The statement that adds a person to a workshop unless their username is taken, for a batch of
 * its own or a workshop's creation. It inserts nothing when the username exists (or, inside a
 * batch, when the workshop row was not inserted): the caller checks its changes.
 */
export function insertPersonStatement({
  db,
  id,
  tenantId,
  name,
  username,
  role,
  passwordHash,
}: {
  db: D1Database;
  id: string;
  tenantId: string;
  name: string;
  username: string;
  role: Role;
  passwordHash: string | null;
}): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO users (id, tenant_id, name, role, username, password_hash)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6
        WHERE EXISTS (SELECT 1 FROM tenants WHERE id = ?2)
          AND NOT EXISTS (SELECT 1 FROM users WHERE username = ?5)`,
    )
    .bind(id, tenantId, name, role, username, passwordHash);
}

/**
 * Adds a person to a workshop: one conditional statement, so of two people added with one
 * username at once, one is added and the other gets 409.
 */
export async function createPerson(input: {
  db: D1Database;
  tenantId: string;
  name: string;
  username: string;
  role: Role;
  passwordHash: string | null;
}): Promise<PersonRow> {
  const id = `u-${crypto.randomUUID()}`;
  const result = await insertPersonStatement({ ...input, id }).run();
  if (result.meta.changes !== 1) throw usernameTaken(input.username);
  return findPerson({ db: input.db, tenantId: input.tenantId, id });
}

/** Removes a person added a moment ago whose setting-up failed further on (their employee link, say). */
export async function removeNewPerson({ db, tenantId, id }: { db: D1Database; tenantId: string; id: string }): Promise<void> {
  await db.prepare("DELETE FROM users WHERE id = ?1 AND tenant_id = ?2").bind(id, tenantId).run();
}

/**
 * Renames a person or changes their role. A new role holds from their next request for web
 * sessions and OAuth connections (both read it from D1 every time), at once in this isolate for
 * their API keys, and within `KEY_CACHE_TTL_MS` in the others.
 */
export async function updatePerson({
  db,
  tenantId,
  id,
  name,
  role,
}: {
  db: D1Database;
  tenantId: string;
  id: string;
  name?: string | undefined;
  role?: Role | undefined;
}): Promise<PersonRow> {
  await db
    .prepare("UPDATE users SET name = COALESCE(?3, name), role = COALESCE(?4, role) WHERE id = ?1 AND tenant_id = ?2")
    .bind(id, tenantId, name ?? null, role ?? null)
    .run();
  if (role !== undefined) apiKeyCache.forgetUser(id);
  return findPerson({ db, tenantId, id });
}

/**
 * Deactivates a person, ending every credential of theirs in one batch: their web sessions are
 * deleted, their API keys and OAuth connections revoked (each request checks those in D1, and this
 * isolate forgets their keys at once; other isolates' key caches within `KEY_CACHE_TTL_MS`), and
 * their unused password links dropped. Their records, chats and audit entries stay. Returns the
 * ids of the OAuth connections it ended, whose grants the caller revokes at the provider too.
 * Deactivating someone already inactive changes nothing.
 */
export async function deactivatePerson({
  db,
  tenantId,
  id,
}: {
  db: D1Database;
  tenantId: string;
  id: string;
}): Promise<{ endedConnections: string[] }> {
  const now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
  const [, , , connections] = await db.batch([
    db
      .prepare(`UPDATE users SET deactivated_at = COALESCE(deactivated_at, ${now}) WHERE id = ?1 AND tenant_id = ?2`)
      .bind(id, tenantId),
    db.prepare("DELETE FROM web_sessions WHERE user_id = ?1 AND tenant_id = ?2").bind(id, tenantId),
    db
      .prepare(`UPDATE api_keys SET revoked_at = ${now} WHERE user_id = ?1 AND tenant_id = ?2 AND revoked_at IS NULL`)
      .bind(id, tenantId),
    db
      .prepare(
        `UPDATE oauth_connections SET revoked_at = ${now} WHERE user_id = ?1 AND tenant_id = ?2 AND revoked_at IS NULL RETURNING id`,
      )
      .bind(id, tenantId),
    db.prepare("DELETE FROM password_links WHERE user_id = ?1 AND tenant_id = ?2").bind(id, tenantId),
  ]);
  apiKeyCache.forgetUser(id);
  return { endedConnections: ((connections?.results ?? []) as { id: string }[]).map((r) => r.id) };
}

/**
 * Lets a deactivated person sign in again with the password they had. The credentials that ended
 * with the deactivation stay ended: they create new keys and connect their apps again.
 */
export async function reactivatePerson({ db, tenantId, id }: { db: D1Database; tenantId: string; id: string }): Promise<void> {
  await db.prepare("UPDATE users SET deactivated_at = NULL WHERE id = ?1 AND tenant_id = ?2").bind(id, tenantId).run();
}
