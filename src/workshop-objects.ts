import type { WorkshopDb } from "./workshop-db.ts";

/** The kinds of Durable Object that hold a workshop's state. */
export type WorkshopObjectKind = "pending_action" | "consult_session" | "chat_stream";

/**
 * Remembers that a Durable Object holds the workshop's state until at most `forgetAfter`, so that
 * deleting the workshop can empty it; rows past their time are forgotten on the way (a few a call).
 */
export async function rememberObject(store: WorkshopDb, object: RememberedObject): Promise<void> {
  await store.db.batch(rememberStatements(store, object));
}

/** An object to remember: its kind, its id, and when it has surely emptied itself. */
export interface RememberedObject {
  kind: WorkshopObjectKind;
  objectId: string;
  forgetAfter: Date;
}

/**
 * `rememberObject` as statements, for a caller that writes them in a batch of its own. An object
 * remembered again (a chat's stream log, used by each of its replies) is kept until the later time.
 */
export function rememberStatements(store: WorkshopDb, { kind, objectId, forgetAfter }: RememberedObject): D1PreparedStatement[] {
  const now = new Date().toISOString();
  return [
    store.db
      .prepare(
        `DELETE FROM workshop_objects WHERE rowid IN
           (SELECT rowid FROM workshop_objects WHERE tenant_id = ?1 AND forget_after < ?2 LIMIT 20)`,
      )
      .bind(store.tenantId, now),
    store.db
      .prepare(
        `INSERT INTO workshop_objects (tenant_id, kind, object_id, forget_after) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (tenant_id, kind, object_id) DO UPDATE SET forget_after = MAX(forget_after, excluded.forget_after)`,
      )
      .bind(store.tenantId, kind, objectId, forgetAfter.toISOString()),
  ];
}

/** The workshop's objects of `kind` whose state may still exist. */
export async function objectsOf(store: WorkshopDb, kind: WorkshopObjectKind): Promise<string[]> {
  const { results } = await store.db
    .prepare("SELECT object_id FROM workshop_objects WHERE tenant_id = ?1 AND kind = ?2")
    .bind(store.tenantId, kind)
    .all<{ object_id: string }>();
  return results.map((r) => r.object_id);
}
