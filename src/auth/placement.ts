import type { WorkshopRef } from "../workshop-db.ts";

/**
 * Where a workshop's data lives, as the directory records it; `null` when there is no such
 * workshop. For requests that name a workshop before anyone is authenticated (an OAuth callback);
 * signed-in requests learn it with their credential.
 */
export async function placementOf({ db, workshopId }: { db: D1Database; workshopId: string }): Promise<WorkshopRef | null> {
  const row = await db
    .prepare("SELECT shard, move_to IS NOT NULL AS moving FROM tenants WHERE id = ?1")
    .bind(workshopId)
    .first<{ shard: string; moving: number }>();
  return row ? { id: workshopId, shard: row.shard, moving: row.moving === 1 } : null;
}
