/**
 * Where a workshop's data lives, as the directory records it: the binding name of its database;
 * `null` when there is no such workshop. For requests that name a workshop before anyone is
 * authenticated (an OAuth callback); signed-in requests learn it with their credential.
 */
export async function placementOf({ db, workshopId }: { db: D1Database; workshopId: string }): Promise<string | null> {
  const row = await db.prepare("SELECT shard FROM tenants WHERE id = ?1").bind(workshopId).first<{ shard: string }>();
  return row?.shard ?? null;
}
