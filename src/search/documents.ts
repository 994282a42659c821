import { notFound } from "../errors.ts";
import type { SearchBackends } from "./backends.ts";
import { deleteDocumentTermsStatement, ensureKeywordTable, keywordTable } from "./keyword-index.ts";
import { removeVectorsQuietly } from "./vector-index.ts";

export interface DocumentRow {
  id: string;
  kb_id: string;
  title: string;
  filename: string;
  source: string;
  content_type: string;
  content_hash: string | null;
  size_bytes: number;
  status: "processing" | "ready" | "failed";
  error: string | null;
  chunk_count: number;
  generation: number;
  created_at: string;
  updated_at: string;
}

/** The columns of a `DocumentRow`, for SELECT and RETURNING. */
export const DOCUMENT_COLUMNS =
  "id, kb_id, title, filename, source, content_type, content_hash, size_bytes, status, error, chunk_count, generation, created_at, updated_at";

/** The knowledge base's documents, by file name. */
export async function listDocuments({
  db,
  tenantId,
  kbId,
}: {
  db: D1Database;
  tenantId: string;
  kbId: string;
}): Promise<DocumentRow[]> {
  const { results } = await db
    .prepare(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE tenant_id = ?1 AND kb_id = ?2 ORDER BY filename`)
    .bind(tenantId, kbId)
    .all<DocumentRow>();
  return results;
}

/** One document of the tenant's knowledge base, or a 404. */
export async function getDocument({
  db,
  tenantId,
  kbId,
  documentId,
}: {
  db: D1Database;
  tenantId: string;
  kbId: string;
  documentId: string;
}): Promise<DocumentRow> {
  const row = await db
    .prepare(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE id = ?1 AND tenant_id = ?2 AND kb_id = ?3`)
    .bind(documentId, tenantId, kbId)
    .first<DocumentRow>();
  if (!row) throw notFound(`No document '${documentId}' in this knowledge base.`);
  return row;
}

/** A document of the knowledge base with this file name or this exact content, if any. */
export async function findDocument({
  db,
  tenantId,
  kbId,
  filename,
  contentHash,
}: {
  db: D1Database;
  tenantId: string;
  kbId: string;
  filename: string;
  contentHash: string;
}): Promise<{ byName: DocumentRow | null; byContent: DocumentRow | null }> {
  const [byName, byContent] = await db.batch<DocumentRow>([
    db
      .prepare(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE tenant_id = ?1 AND kb_id = ?2 AND filename = ?3`)
      .bind(tenantId, kbId, filename),
    db
      .prepare(
        `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE tenant_id = ?1 AND kb_id = ?2 AND content_hash = ?3 AND status = 'ready' LIMIT 1`,
      )
      .bind(tenantId, kbId, contentHash),
  ]);
  return { byName: byName?.results[0] ?? null, byContent: byContent?.results[0] ?? null };
}

/**
 * Deletes a document, its chunks and their keyword rows in one batch, then the vectors of exactly
 * the chunks that batch deleted (so a replacement landing meanwhile leaves no vector behind). With
 * `generation`, the batch applies only while the document is still at it, and the answer says
 * whether it did.
 */
export async function deleteDocument({
  db,
  backends,
  tenantId,
  kbId,
  documentId,
  generation,
}: {
  db: D1Database;
  backends: SearchBackends;
  tenantId: string;
  kbId: string;
  documentId: string;
  generation?: number | undefined;
}): Promise<{ deleted: boolean }> {
  await getDocument({ db, tenantId, kbId, documentId });
  const table = await keywordTable(tenantId);
  await ensureKeywordTable(db, table);
  // A NULL generation is no condition; otherwise every statement checks it, the row's own delete last.
  const [, deletedChunks, deletedDocument] = await db.batch([
    deleteDocumentTermsStatement(db, table, documentId, generation),
    db
      .prepare(
        `DELETE FROM chunks WHERE document_id = ?1
           AND (?2 IS NULL OR EXISTS (SELECT 1 FROM documents WHERE id = ?1 AND generation = ?2)) RETURNING id`,
      )
      .bind(documentId, generation ?? null),
    db
      .prepare("DELETE FROM documents WHERE id = ?1 AND tenant_id = ?2 AND (?3 IS NULL OR generation = ?3) RETURNING id")
      .bind(documentId, tenantId, generation ?? null),
  ]);
  const ids = ((deletedChunks?.results ?? []) as { id: string }[]).map((r) => r.id);
  await removeVectorsQuietly(backends.vectorIndex, tenantId, ids, "deleted_document");
  return { deleted: (deletedDocument?.results.length ?? 0) > 0 };
}
