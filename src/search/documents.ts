import { notFound } from "../errors.ts";
import type { SearchBackends } from "./backends.ts";
import { deleteDocumentTermsStatement, ensureKeywordTable, keywordTable } from "./keyword-index.ts";
import { removeVectorsQuietly } from "./vector-index.ts";

/**
 * Where a document stands: its latest upload `queued` for, `parsing` in or `indexing` in the
 * ingestion job; `processing` in a request; `ready` (searchable) or `failed`. A replacement that
 * fails leaves the document `ready` with its previous version, and says why in `error`.
 */
export type DocumentStatus = "queued" | "parsing" | "indexing" | "processing" | "ready" | "failed";

/** How far the ingestion job has got: pages or rows read, then passages indexed, of the total. */
export interface DocumentProgress {
  unit: "pages" | "rows" | "chunks";
  done: number;
  total: number | null;
}

export interface DocumentRow {
  id: string;
  kb_id: string;
  title: string;
  filename: string;
  source: string;
  content_type: string;
  content_hash: string | null;
  size_bytes: number;
  status: DocumentStatus;
  /** Why the latest upload was refused, in English; `error_reason` and `error_params` say it for any language. */
  error: string | null;
  error_reason: string | null;
  error_params: Record<string, string | number> | null;
  progress: DocumentProgress | null;
  chunk_count: number;
  generation: number;
  created_at: string;
  updated_at: string;
}

/** A document row as D1 returns it, before its job's progress and its error's figures are read. */
type RawDocument = Omit<DocumentRow, "error_params" | "progress"> & {
  error_params: string | null;
  unit: DocumentProgress["unit"] | null;
  done: number | null;
  total: number | null;
};

const OWN_COLUMNS =
  "id, kb_id, title, filename, source, content_type, content_hash, size_bytes, status, error, error_reason, error_params, chunk_count, generation, created_at, updated_at";

/** The columns of a document for RETURNING, where no job can be joined (a write that ends one has none). */
export const DOCUMENT_COLUMNS = `${OWN_COLUMNS}, NULL AS unit, NULL AS done, NULL AS total`;

// A document with its job, if one is reading its latest upload: the job's status stands for it.
const SELECT_DOCUMENT = `SELECT d.id, d.kb_id, d.title, d.filename, d.source, d.content_type, d.content_hash, d.size_bytes,
    COALESCE(j.status, d.status) AS status, d.error, d.error_reason, d.error_params, d.chunk_count, d.generation,
    d.created_at, d.updated_at, j.unit, j.done, j.total
  FROM documents d LEFT JOIN document_jobs j ON j.document_id = d.id`;

/** A document as the API shows it, from a row of `SELECT_DOCUMENT` or `RETURNING DOCUMENT_COLUMNS`. */
export function documentOf(raw: RawDocument | DocumentRow): DocumentRow {
  if ("progress" in raw) return raw;
  const { unit, done, total, error_params, ...rest } = raw;
  let params: Record<string, string | number> | null = null;
  try {
    params = error_params ? (JSON.parse(error_params) as Record<string, string | number>) : null;
  } catch {
    params = null;
  }
  return { ...rest, error_params: params, progress: unit ? { unit, done: done ?? 0, total } : null };
}

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
    .prepare(`${SELECT_DOCUMENT} WHERE d.tenant_id = ?1 AND d.kb_id = ?2 ORDER BY d.filename`)
    .bind(tenantId, kbId)
    .all<RawDocument>();
  return results.map(documentOf);
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
    .prepare(`${SELECT_DOCUMENT} WHERE d.id = ?1 AND d.tenant_id = ?2 AND d.kb_id = ?3`)
    .bind(documentId, tenantId, kbId)
    .first<RawDocument>();
  if (!row) throw notFound(`No document '${documentId}' in this knowledge base.`);
  return documentOf(row);
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
  const [byName, byContent] = await db.batch<RawDocument>([
    db.prepare(`${SELECT_DOCUMENT} WHERE d.tenant_id = ?1 AND d.kb_id = ?2 AND d.filename = ?3`).bind(tenantId, kbId, filename),
    db
      .prepare(
        `${SELECT_DOCUMENT} WHERE d.tenant_id = ?1 AND d.kb_id = ?2 AND d.content_hash = ?3 AND d.status = 'ready' LIMIT 1`,
      )
      .bind(tenantId, kbId, contentHash),
  ]);
  const first = (result: D1Result<RawDocument> | undefined) => (result?.results[0] ? documentOf(result.results[0]) : null);
  return { byName: first(byName), byContent: first(byContent) };
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
