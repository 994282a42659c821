import { AppError } from "../errors.ts";

/**
 * The knowledge bases a search may read: the ones asked for, all of which must be the caller's
 * (an id they cannot read is an error, never silently dropped), or else all of the tenant's.
 */
export async function resolveScope({
  db,
  tenantId,
  kbIds,
}: {
  db: D1Database;
  tenantId: string;
  kbIds?: string[] | undefined;
}): Promise<string[]> {
  const { results } = await db
    .prepare("SELECT id FROM knowledge_bases WHERE tenant_id = ?1")
    .bind(tenantId)
    .all<{ id: string }>();
  const own = new Set(results.map((r) => r.id));
  if (!kbIds || kbIds.length === 0) return [...own];
  const unknown = kbIds.filter((id) => !own.has(id));
  if (unknown.length > 0) {
    throw new AppError(
      "knowledge_base_not_found",
      `No knowledge base ${unknown.map((id) => `'${id}'`).join(", ")} in your workshop. List yours with list_knowledge_bases or GET /api/knowledge-bases.`,
    );
  }
  return [...new Set(kbIds)];
}
