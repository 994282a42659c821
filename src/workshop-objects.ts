import type { WorkshopDb } from "./workshop-db.ts";

/** The kinds of Durable Object that hold a workshop's state. */
export type WorkshopObjectKind = "pending_action" | "consult_session";

/**
 * Remembers that a Durable Object holds the workshop's state until at most `forgetAfter`, so that
 * deleting the workshop can empty it; rows past their time are forgotten on the way (a few a call).
 */
export async function rememberObject(
  store: WorkshopDb,
  { kind, objectId, forgetAfter }: { kind: WorkshopObjectKind; objectId: string; forgetAfter: Date },
): Promise<void> {
  const now = new Date().toISOString();
  await store.db.batch([
    store.db
      .prepare(
        `DELETE FROM workshop_objects WHERE rowid IN
           (SELECT rowid FROM workshop_objects WHERE tenant_id = ?1 AND forget_after < ?2 LIMIT 20)`,
      )
      .bind(store.tenantId, now),
    store.db
      .prepare("INSERT OR IGNORE INTO workshop_objects (tenant_id, kind, object_id, forget_after) VALUES (?1, ?2, ?3, ?4)")
      .bind(store.tenantId, kind, objectId, forgetAfter.toISOString()),
  ]);
}

/** The workshop's objects of `kind` whose state may still exist. */
export async function objectsOf(store: WorkshopDb, kind: WorkshopObjectKind): Promise<string[]> {
  const { results } = await store.db
    .prepare("SELECT object_id FROM workshop_objects WHERE tenant_id = ?1 AND kind = ?2")
    .bind(store.tenantId, kind)
    .all<{ object_id: string }>();
  return results.map((r) => r.object_id);
}
