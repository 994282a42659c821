/**
 * The names of a workshop's people by id, from the directory: workshop data (the audit, say)
 * records who acted by id only, since people live in the directory and not beside it.
 */
export async function personNames({
  db,
  tenantId,
  ids,
}: {
  db: D1Database;
  tenantId: string;
  ids: readonly string[];
}): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const { results } = await db
    .prepare(`SELECT id, name FROM users WHERE tenant_id = ?1 AND id IN (SELECT value FROM json_each(?2))`)
    .bind(tenantId, JSON.stringify(unique))
    .all<{ id: string; name: string }>();
  return new Map(results.map((r) => [r.id, r.name]));
}
