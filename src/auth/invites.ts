import { returningRow } from "../db.ts";
import { notFound } from "../errors.ts";
import { sha256Hex } from "../sha256.ts";

// Crockford's base32: no I, L, O or U, so a code read aloud or copied by hand survives.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const GROUPS = 4;
const GROUP_LENGTH = 5;

/** An invite code as the operator's list shows it: never the code, which only its creation returns. */
export interface InviteView {
  id: string;
  note: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  used_by_workshop: string | null;
  revoked_at: string | null;
}

/** A fresh code, `XXXXX-XXXXX-XXXXX-XXXXX` (100 random bits). */
function newCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(GROUPS * GROUP_LENGTH));
  const chars = [...bytes].map((b) => ALPHABET[b & 31]);
  return Array.from({ length: GROUPS }, (_, i) => chars.slice(i * GROUP_LENGTH, (i + 1) * GROUP_LENGTH).join("")).join("-");
}

/**
 * An invite code as it is stored and compared: upper case, without spaces or hyphens, and the
 * letters base32 leaves out read as the digits they look like (`O` as `0`, `I` and `L` as `1`).
 */
export function canonicalInviteCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
}

/** The hash an invite code is stored and looked up by. */
export function inviteCodeHash(code: string): Promise<string> {
  return sha256Hex(`invite:${canonicalInviteCode(code)}`);
}

const VIEW_COLUMNS = "id, note, created_at, expires_at, used_at, used_by_tenant AS used_by_workshop, revoked_at";

/** Creates a one-time invite code valid for `days`; the code is returned here and never again. */
export async function createInvite({
  db,
  note,
  days,
}: {
  db: D1Database;
  note: string;
  days: number;
}): Promise<{ code: string; invite: InviteView }> {
  const code = newCode();
  const expiresAt = new Date(Date.now() + days * 86_400_000).toISOString();
  const invite = await returningRow<InviteView>(
    db
      .prepare(`INSERT INTO invite_codes (id, code_hash, note, expires_at) VALUES (?1, ?2, ?3, ?4) RETURNING ${VIEW_COLUMNS}`)
      .bind(crypto.randomUUID(), await inviteCodeHash(code), note, expiresAt),
  );
  return { code, invite };
}

/** The newest invite codes first, at most 200. */
export async function listInvites({ db }: { db: D1Database }): Promise<InviteView[]> {
  const { results } = await db
    .prepare(`SELECT ${VIEW_COLUMNS} FROM invite_codes ORDER BY created_at DESC, id LIMIT 200`)
    .all<InviteView>();
  return results;
}

/** Revokes an unused invite code; revoking it again, or one already used, changes nothing. */
export async function revokeInvite({ db, id }: { db: D1Database; id: string }): Promise<InviteView> {
  const row = await db
    .prepare(
      `UPDATE invite_codes SET revoked_at = COALESCE(revoked_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        WHERE id = ?1 AND used_at IS NULL RETURNING ${VIEW_COLUMNS}`,
    )
    .bind(id)
    .first<InviteView>();
  if (row) return row;
  const used = await db.prepare(`SELECT ${VIEW_COLUMNS} FROM invite_codes WHERE id = ?1`).bind(id).first<InviteView>();
  if (!used) throw notFound(`No invite code '${id.slice(0, 100)}'.`);
  return used;
}

/** The SQL condition that an invite code (by its hash, `?N`) can still sign a workshop up. */
export function inviteUsable(param: string): string {
  return `EXISTS (SELECT 1 FROM invite_codes WHERE code_hash = ${param} AND used_at IS NULL AND revoked_at IS NULL
                   AND expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
}

/** Whether an invite code can still sign a workshop up. */
export async function inviteValid({ db, codeHash }: { db: D1Database; codeHash: string }): Promise<boolean> {
  return (
    (
      await db
        .prepare(`SELECT ${inviteUsable("?1")} AS ok`)
        .bind(codeHash)
        .first<{ ok: number }>()
    )?.ok === 1
  );
}
