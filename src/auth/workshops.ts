import type { Config } from "../config.ts";
import { decodeCursor, page } from "../cursor.ts";
import { forbidden } from "../errors.ts";
import { log } from "../log.ts";
import { chooseShard, recordWorkshop } from "../placement/choose.ts";
import { ingestDocument } from "../search/ingest.ts";
import { createKnowledgeBase, deleteKnowledgeBase } from "../search/knowledge-bases.ts";
import type { SearchService } from "../search/service.ts";
import { PRIMARY_SHARD, servicesFor, shardsOf } from "../services.ts";
import { FIRST_STEPS_FILENAME, FIRST_STEPS_GUIDE, GUIDE_KNOWLEDGE_BASE, STARTING_KNOWLEDGE_BASES } from "./first-steps.ts";
import { inviteUsable } from "./invites.ts";
import { insertPersonStatement, usernameExists, usernameTaken } from "./people.ts";
import type { WebUser } from "./web-sessions.ts";

/** A workshop as the operator's list shows it: directory facts only, never its data. */
export interface WorkshopSummary {
  id: string;
  name: string;
  created_at: string;
  /** Everyone in it, and those not deactivated. */
  people: number;
  active_people: number;
  /** The shard its data lives on, and the one it is being moved to, if it is. */
  shard: string;
  moving_to: string | null;
}

/** The boss a new workshop starts with. */
export interface NewBoss {
  name: string;
  /** In its canonical form (`canonicalUsername`). */
  username: string;
  /** Null for a boss the operator adds, who sets a password through a one-time link. */
  passwordHash: string | null;
  /** `boss` (a sign-up's), or `admin` where the operator makes the workshop's first admin. */
  role?: "boss" | "admin";
}

/**
 * Creates a workshop: the one way a workshop comes to exist from a request. First the directory's
 * rows, in one batch: the workshop and its boss, only if the username is free and (for an invite)
 * the code still unused, which the same batch marks used; then, through the services wired for the
 * new workshop, its own data: the starting knowledge bases and the first-steps guide
 * (`first-steps.ts`). The two kinds of rows are never written by one statement or batch: they may
 * live on different databases. If the second part fails, what it made and the directory's rows are
 * removed again (the invite freed), and the error is thrown: no half-made workshop stays.
 *
 * @example const { user } = await createWorkshop({ env: c.env, config, db, workshopName, boss, inviteCodeHash })
 */
export async function createWorkshop({
  env,
  config,
  db,
  workshopName,
  boss,
  inviteCodeHash,
  shard: wanted,
}: {
  env: Env;
  config: Config;
  db: D1Database;
  workshopName: string;
  boss: NewBoss;
  /** The invite code's hash when the deployment signs up by invitation. */
  inviteCodeHash?: string | undefined;
  /** The shard the operator places the workshop on (else an invite's, else the least full). */
  shard?: string | undefined;
}): Promise<{ user: WebUser; shard: string }> {
  const tenantId = `t-${crypto.randomUUID()}`;
  const userId = `u-${crypto.randomUUID()}`;
  // Placed before the directory hears of it: on the shard an operator's invite names, else on the
  // one holding the least data. Its record there comes first, so the directory never names a
  // shard that cannot take its rows (on the primary database the directory's row is the record).
  const shards = shardsOf(env);
  const invited =
    inviteCodeHash === undefined
      ? null
      : await db
          .prepare("SELECT shard FROM invite_codes WHERE code_hash = ?1")
          .bind(inviteCodeHash)
          .first<{ shard: string | null }>();
  const shard = await chooseShard(shards, wanted ?? invited?.shard ?? undefined);
  const home = shards.get(shard) as D1Database;
  if (shard !== PRIMARY_SHARD) await recordWorkshop(home, { id: tenantId, name: workshopName });
  const inviteCondition = inviteCodeHash === undefined ? "" : `AND ${inviteUsable("?5")}`;
  const [workshop] = await db.batch([
    db
      .prepare(
        `INSERT INTO tenants (id, name, shard) SELECT ?1, ?2, ?4
          WHERE NOT EXISTS (SELECT 1 FROM users WHERE username = ?3) ${inviteCondition}`,
      )
      .bind(tenantId, workshopName, boss.username, shard, ...(inviteCodeHash === undefined ? [] : [inviteCodeHash])),
    insertPersonStatement({
      db,
      id: userId,
      tenantId,
      name: boss.name,
      username: boss.username,
      role: boss.role ?? "boss",
      passwordHash: boss.passwordHash,
    }),
    ...(inviteCodeHash === undefined
      ? []
      : [
          db
            .prepare(
              `UPDATE invite_codes SET used_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), used_by_tenant = ?2
                WHERE code_hash = ?1 AND used_at IS NULL AND EXISTS (SELECT 1 FROM tenants WHERE id = ?2)`,
            )
            .bind(inviteCodeHash, tenantId),
        ]),
  ]);
  if ((workshop?.meta.changes ?? 0) !== 1) {
    if (shard !== PRIMARY_SHARD) await home.prepare("DELETE FROM tenants WHERE id = ?1").bind(tenantId).run();
    if (await usernameExists({ db, username: boss.username })) throw usernameTaken(boss.username);
    throw forbidden("This invite code is unknown, used, revoked or expired. Ask the operator of this Weft for a new one.");
  }
  let search: SearchService | undefined;
  try {
    search = servicesFor(env, config, { id: tenantId, shard }).search;
    await startWorkshop(search);
  } catch (error) {
    await undoWorkshop({ db, search, tenantId });
    if (shard !== PRIMARY_SHARD) await home.prepare("DELETE FROM tenants WHERE id = ?1").bind(tenantId).run();
    throw error;
  }
  return {
    user: { id: userId, name: boss.name, role: boss.role ?? "boss", tenant_id: tenantId, tenant_name: workshopName },
    shard,
  };
}

/** Lays a new workshop's own data: its starting knowledge bases and the first-steps guide. */
async function startWorkshop(search: SearchService): Promise<void> {
  for (const kb of STARTING_KNOWLEDGE_BASES) await createKnowledgeBase({ ...search, ...kb });
  const guideBase = await createKnowledgeBase({ ...search, ...GUIDE_KNOWLEDGE_BASE });
  await ingestDocument({
    ...search,
    input: { tenantId: search.tenantId, kbId: guideBase.id, filename: FIRST_STEPS_FILENAME, content: FIRST_STEPS_GUIDE },
  });
}

/**
 * Removes a workshop whose start failed: what its data holds so far (nothing, when its services
 * could not even be wired), then its directory rows, freeing its invite code.
 */
async function undoWorkshop({ db, search, tenantId }: { db: D1Database; search: SearchService | undefined; tenantId: string }) {
  try {
    const { results } = search
      ? await search.db.prepare("SELECT id FROM knowledge_bases WHERE tenant_id = ?1").bind(tenantId).all<{ id: string }>()
      : { results: [] };
    for (const { id } of results) if (search) await deleteKnowledgeBase({ ...search, id });
    await db.batch([
      db.prepare("UPDATE invite_codes SET used_at = NULL, used_by_tenant = NULL WHERE used_by_tenant = ?1").bind(tenantId),
      db.prepare("DELETE FROM users WHERE tenant_id = ?1").bind(tenantId),
      db.prepare("DELETE FROM tenants WHERE id = ?1").bind(tenantId),
    ]);
  } catch (error) {
    log("error", "workshop_undo_failed", { tenant_id: tenantId, error });
  }
}

/**
 * A page of the workshops of this Weft, newest first, with how many people each has: what the
 * directory knows, and nothing of any workshop's own data.
 */
export async function listWorkshops({
  db,
  limit,
  cursor,
}: {
  db: D1Database;
  limit: number;
  cursor?: string | undefined;
}): Promise<{ items: WorkshopSummary[]; next_cursor: string | null }> {
  const after = cursor ? decodeCursor(cursor, 2).map(String) : null;
  const { results } = await db
    .prepare(
      `SELECT t.id, t.name, t.created_at, t.shard, t.move_to AS moving_to,
              (SELECT COUNT(*) FROM users u WHERE u.tenant_id = t.id) AS people,
              (SELECT COUNT(*) FROM users u WHERE u.tenant_id = t.id AND u.deactivated_at IS NULL) AS active_people
         FROM tenants t ${after ? "WHERE (t.created_at, t.id) < (?1, ?2)" : ""}
        ORDER BY t.created_at DESC, t.id DESC LIMIT ${limit + 1}`,
    )
    .bind(...(after ?? []))
    .all<WorkshopSummary>();
  return page(results, limit, (w) => [w.created_at, w.id]);
}
