import { notFound } from "./errors.ts";
import type { SearchBackends } from "./search/backends.ts";
import { keywordTable } from "./search/keyword-index.ts";
import { removeVectorsQuietly } from "./search/vector-index.ts";

// Children before parents: piece records and adjustments point at employees, processes and orders.
const BUSINESS_TABLES = [
  "piece_records",
  "payroll_adjustments",
  "business_audit",
  "orders",
  "processes",
  "styles",
  "employees",
] as const;

export interface DeletedTenant {
  knowledge_bases: number;
  documents: number;
  chunks: number;
}

/**
 * Deletes a workshop and everything it owns: knowledge bases, documents, chunks, business records,
 * users and keys, and the rows of its keyword index, in one D1 batch; then the vectors of exactly
 * the chunks that batch deleted. The business tables reference `tenants` without a cascade, so they
 * are emptied here, children before parents; a table added later needs `tenant_id … ON DELETE
 * CASCADE` or a line below. The (then empty) keyword table is kept, since other isolates may
 * remember it as existing.
 */
export async function deleteTenant({
  db,
  backends,
  tenantId,
}: {
  db: D1Database;
  backends: SearchBackends;
  tenantId: string;
}): Promise<DeletedTenant> {
  const table = await keywordTable(tenantId);
  const hasKeywordTable = await db
    .prepare("SELECT 1 AS ok FROM sqlite_master WHERE type = 'table' AND name = ?1")
    .bind(table)
    .first();
  const results = await db.batch([
    db.prepare("SELECT 1 AS ok FROM tenants WHERE id = ?1").bind(tenantId),
    ...(hasKeywordTable ? [db.prepare(`DELETE FROM ${table}`)] : []),
    db.prepare("DELETE FROM chunks WHERE tenant_id = ?1 RETURNING id").bind(tenantId),
    db.prepare("DELETE FROM documents WHERE tenant_id = ?1 RETURNING id").bind(tenantId),
    db.prepare("DELETE FROM knowledge_bases WHERE tenant_id = ?1 RETURNING id").bind(tenantId),
    ...BUSINESS_TABLES.map((table) => db.prepare(`DELETE FROM ${table} WHERE tenant_id = ?1`).bind(tenantId)),
    db.prepare("DELETE FROM api_keys WHERE tenant_id = ?1").bind(tenantId),
    db.prepare("DELETE FROM users WHERE tenant_id = ?1").bind(tenantId),
    db.prepare("DELETE FROM tenants WHERE id = ?1").bind(tenantId),
  ]);
  if ((results[0]?.results.length ?? 0) === 0) throw notFound(`No workshop '${tenantId}'.`);
  const [chunks, documents, knowledgeBases] = results.slice(hasKeywordTable ? 2 : 1).map((r) => r.results as { id: string }[]);
  await removeVectorsQuietly(
    backends.vectorIndex,
    tenantId,
    (chunks ?? []).map((r) => r.id),
    "deleted_tenant",
  );
  return { knowledge_bases: knowledgeBases?.length ?? 0, documents: documents?.length ?? 0, chunks: chunks?.length ?? 0 };
}
