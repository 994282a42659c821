import { AppError } from "../errors.ts";
import { SYNONYM_STAMP_SQL } from "./synonym-store.ts";

/**
 * The knowledge bases a search may read: the ones asked for, all of which must be the caller's
 * (an id they cannot read is an error, never silently dropped), or else all of the tenant's. With
 * them, in the same statement (one round trip less a search), the stamp of the workshop's synonym
 * set (`SYNONYM_STAMP_SQL`); unknown, and not needed, when the workshop has no knowledge base.
 */
export async function resolveScope({
  db,
  tenantId,
  kbIds,
}: {
  db: D1Database;
  tenantId: string;
  kbIds?: string[] | undefined;
}): Promise<{ kbIds: string[]; synonymStamp: string | null }> {
  const { results } = await db
    .prepare(`SELECT id, ${SYNONYM_STAMP_SQL} AS synonym_stamp FROM knowledge_bases WHERE tenant_id = ?1`)
    .bind(tenantId)
    .all<{ id: string; synonym_stamp: string | null }>();
  const own = new Set(results.map((r) => r.id));
  const synonymStamp = results[0]?.synonym_stamp ?? null;
  if (!kbIds || kbIds.length === 0) return { kbIds: [...own], synonymStamp };
  const unknown = kbIds.filter((id) => !own.has(id));
  if (unknown.length > 0) {
    throw new AppError(
      "knowledge_base_not_found",
      `No knowledge base ${unknown.map((id) => `'${id}'`).join(", ")} in your workshop. List yours with list_knowledge_bases or GET /api/knowledge-bases.`,
    );
  }
  return { kbIds: [...new Set(kbIds)], synonymStamp };
}
