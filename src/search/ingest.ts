import { AppError, conflict } from "../errors.ts";
import { sha256Hex } from "../sha256.ts";
import type { SearchBackends } from "./backends.ts";
import { type ChunkOptions, chunkText, DEFAULT_CHUNKING } from "./chunker.ts";
import { chunkIdsOf, type DocumentRow, findDocument, getDocument } from "./documents.ts";
import {
  deleteDocumentTermsStatement,
  ensureKeywordTable,
  indexedTerms,
  insertTermsStatement,
  keywordTable,
} from "./keyword-index.ts";
import { contentTypeOf, parseDocument } from "./parse.ts";
import { passageText } from "./search.ts";
import { removeVectorsQuietly } from "./vector-index.ts";

export const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;

export interface IngestInput {
  tenantId: string;
  kbId: string;
  filename: string;
  content: string;
  title?: string | undefined;
  contentType?: string | undefined;
  source?: string | undefined;
  /** Replace this document (by id) rather than match by file name. */
  replaceId?: string | undefined;
}

export type IngestOutcome = { status: "created" | "replaced" | "unchanged"; document: DocumentRow };

/**
 * Adds or replaces one document. Everything that can fail (parsing, embedding, the vector index)
 * happens before one D1 batch swaps the old chunks for the new in the chunk table and the keyword
 * index together; search joins vector hits against that table, so no search ever sees half a
 * document. The same content uploaded again changes nothing.
 */
export async function ingestDocument({
  db,
  backends,
  input,
  chunking = DEFAULT_CHUNKING,
}: {
  db: D1Database;
  backends: SearchBackends;
  input: IngestInput;
  chunking?: ChunkOptions;
}): Promise<IngestOutcome> {
  const { tenantId, kbId, filename, content } = input;
  const size = new TextEncoder().encode(content).length;
  if (size > MAX_DOCUMENT_BYTES) {
    throw new AppError(
      "payload_too_large",
      `'${filename}' is ${size} bytes; the limit is ${MAX_DOCUMENT_BYTES} bytes per document. Split it.`,
    );
  }
  const type = contentTypeOf(filename, input.contentType);
  const contentHash = await sha256Hex(`${type}\n${input.title ?? ""}\n${content}`);
  const found = await findDocument({ db, tenantId, kbId, filename, contentHash });
  const existing = input.replaceId ? await getDocument({ db, tenantId, kbId, documentId: input.replaceId }) : found.byName;
  if (existing?.content_hash === contentHash && existing.status === "ready") return { status: "unchanged", document: existing };
  if (!existing && found.byContent) return { status: "unchanged", document: found.byContent };

  const documentId = existing?.id ?? crypto.randomUUID();
  const generation = (existing?.generation ?? 0) + 1;
  if (!existing) {
    const inserted = await db
      .prepare(
        `INSERT INTO documents (id, tenant_id, kb_id, title, filename, source, content_type, size_bytes, status)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'processing') ON CONFLICT (kb_id, filename) DO NOTHING RETURNING id`,
      )
      .bind(documentId, tenantId, kbId, input.title ?? filename, filename, input.source ?? "upload", type, size)
      .first();
    // Another upload of the same new file name got there first and is still indexing it.
    if (!inserted) throw conflict(`'${filename}' is being uploaded by another request right now. Try again in a moment.`);
  }

  let newIds: string[] = [];
  try {
    const parsed = parseDocument(filename, content, type);
    const title = input.title ?? parsed.title;
    const chunks = chunkText(parsed.text, chunking);
    if (chunks.length === 0) throw new AppError("unparseable_document", `'${filename}' has no text to index.`);
    const texts = chunks.map((c) =>
      passageText({ knowledge_title: title, heading_path: c.headingPath.join(" > "), content: c.content }),
    );
    const vectors = await backends.embedder.embed(texts);
    newIds = chunks.map((c) => `${documentId}:${generation}:${c.position}`);
    await backends.vectorIndex.upsert(
      tenantId,
      newIds.map((id, i) => ({ id, kbId, documentId, values: vectors[i] as number[] })),
    );

    const table = await keywordTable(tenantId);
    await ensureKeywordTable(db, table);
    const oldIds = existing ? await chunkIdsOf({ db, documentId }) : [];
    await db.batch([
      deleteDocumentTermsStatement(db, table, documentId),
      db.prepare("DELETE FROM chunks WHERE document_id = ?1").bind(documentId),
      ...insertChunkStatements(
        db,
        table,
        chunks.map((chunk, i) => ({
          id: newIds[i] as string,
          position: chunk.position,
          heading_path: chunk.headingPath.join(" > "),
          content: chunk.content,
          terms: indexedTerms(texts[i] as string),
        })),
        { tenantId, kbId, documentId },
      ),
      db
        .prepare(
          `UPDATE documents SET title = ?2, content_type = ?3, content_hash = ?4, size_bytes = ?5, status = 'ready', error = NULL,
             chunk_count = ?6, generation = ?7, source = ?8, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1`,
        )
        .bind(
          documentId,
          title,
          type,
          contentHash,
          size,
          chunks.length,
          generation,
          input.source ?? existing?.source ?? "upload",
        ),
    ]);
    await removeVectorsQuietly(backends.vectorIndex, tenantId, oldIds, "replaced_chunks");
    const document = await getDocument({ db, tenantId, kbId, documentId });
    return { status: existing ? "replaced" : "created", document };
  } catch (error) {
    await removeVectorsQuietly(backends.vectorIndex, tenantId, newIds, "failed_ingestion");
    const reason = error instanceof AppError ? error.message : "indexing failed unexpectedly";
    // A new document is kept as failed, with the reason; a replacement leaves the previous
    // version serving and records why the new one was refused.
    await db
      .prepare(
        `UPDATE documents SET status = CASE WHEN chunk_count = 0 THEN 'failed' ELSE status END, error = ?2,
           updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1`,
      )
      .bind(documentId, existing ? `replacement refused: ${reason}` : reason)
      .run();
    throw error;
  }
}

// D1 counts statements, not rows, against a request's query limit: rows go in as JSON, many a statement.
const ROWS_PER_STATEMENT = 200;

function insertChunkStatements(
  db: D1Database,
  table: string,
  rows: { id: string; position: number; heading_path: string; content: string; terms: string }[],
  owner: { tenantId: string; kbId: string; documentId: string },
): D1PreparedStatement[] {
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const slice = JSON.stringify(rows.slice(i, i + ROWS_PER_STATEMENT));
    statements.push(
      db
        .prepare(
          `INSERT INTO chunks (id, tenant_id, kb_id, document_id, position, heading_path, content)
           SELECT value ->> '$.id', ?2, ?3, ?4, value ->> '$.position', value ->> '$.heading_path', value ->> '$.content' FROM json_each(?1)`,
        )
        .bind(slice, owner.tenantId, owner.kbId, owner.documentId),
      insertTermsStatement(db, table, slice),
    );
  }
  return statements;
}

/** Deletes a document, its chunks and their keyword rows in one batch, then its vectors. */
export async function deleteDocument({
  db,
  backends,
  tenantId,
  kbId,
  documentId,
}: {
  db: D1Database;
  backends: SearchBackends;
  tenantId: string;
  kbId: string;
  documentId: string;
}): Promise<void> {
  await getDocument({ db, tenantId, kbId, documentId });
  const ids = await chunkIdsOf({ db, documentId });
  const table = await keywordTable(tenantId);
  await ensureKeywordTable(db, table);
  await db.batch([
    deleteDocumentTermsStatement(db, table, documentId),
    db.prepare("DELETE FROM chunks WHERE document_id = ?1").bind(documentId),
    db.prepare("DELETE FROM documents WHERE id = ?1 AND tenant_id = ?2").bind(documentId, tenantId),
  ]);
  await removeVectorsQuietly(backends.vectorIndex, tenantId, ids, "deleted_document");
}
