import { sealBinding } from "./contact.ts";
import { oauthBinding } from "./oauth.ts";
import { openWithAny, sealJson } from "./secrets.ts";

/** Servers looked at per step: each costs two decryptions and at most two writes. */
const SERVERS_PER_STEP = 100;

/** What a rotation step found of the sealed values it looked at on one database. */
export interface ResealStep {
  /** Values sealed with an older key, now sealed with the current one. */
  resealed: number;
  /** Values the current key already opens (or that another request sealed again meanwhile). */
  current: number;
  /** Values no configured key opens: sealed with a key that is gone; their owners must set them again. */
  unreadable: { tenant_id: string; server_id: string; what: "headers" | "oauth" }[];
  /** The last server id looked at, to go on after; null when the database is done. */
  after: string | null;
}

interface SealedRow {
  id: string;
  tenant_id: string;
  headers_sealed: string | null;
  oauth_sealed: string | null;
}

/**
 * One bounded step of re-encrypting the external servers' header secrets and OAuth records on one
 * database with `secret` (the key rotation's new key), opening them with it or one of `older`.
 * Each write applies only while the row still holds the value that was read, so a value another
 * request stored meanwhile (sealed with the new key already) is kept. Nothing is ever decrypted
 * into a response or a log; what cannot be opened is only counted and named by ids.
 *
 * @example let after = null; do ({ after } = await resealStep({ db, secret, older, after })); while (after)
 */
export async function resealStep({
  db,
  secret,
  older,
  after,
}: {
  db: D1Database;
  secret: string;
  older: readonly string[];
  after: string | null;
}): Promise<ResealStep> {
  const { results } = await db
    .prepare(
      `SELECT id, tenant_id, headers_sealed, oauth_sealed FROM mcp_servers
        WHERE (headers_sealed IS NOT NULL OR oauth_sealed IS NOT NULL) AND id > ?1 ORDER BY id LIMIT ?2`,
    )
    .bind(after ?? "", SERVERS_PER_STEP)
    .all<SealedRow>();
  const step: ResealStep = { resealed: 0, current: 0, unreadable: [], after: null };
  const keys = [secret, ...older];
  for (const row of results) {
    const server = { tenantId: row.tenant_id, id: row.id };
    for (const [what, column, sealed, binding] of [
      ["headers", "headers_sealed", row.headers_sealed, sealBinding(server)],
      ["oauth", "oauth_sealed", row.oauth_sealed, oauthBinding(server)],
    ] as const) {
      if (sealed === null) continue;
      const opened = await openWithAny({ keys, sealed, binding });
      if (opened === null) {
        step.unreadable.push({ tenant_id: row.tenant_id, server_id: row.id, what });
        continue;
      }
      if (opened.keyIndex === 0) {
        step.current++;
        continue;
      }
      const fresh = await sealJson({ secret, value: opened.value, binding });
      const written = await db
        .prepare(`UPDATE mcp_servers SET ${column} = ?1 WHERE id = ?2 AND tenant_id = ?3 AND ${column} = ?4`)
        .bind(fresh, row.id, row.tenant_id, sealed)
        .run();
      if (written.meta.changes === 1) step.resealed++;
      else step.current++;
    }
  }
  step.after = results.length === SERVERS_PER_STEP ? (results.at(-1)?.id ?? null) : null;
  return step;
}
