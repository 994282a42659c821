import { AppError, conflict, notFound } from "../errors.ts";
import { sha256Hex } from "../sha256.ts";
import type { SearchBackends } from "./backends.ts";
import { type ChunkOptions, chunkText, DEFAULT_CHUNKING } from "./chunker.ts";
import { DOCUMENT_COLUMNS, type DocumentRow, findDocument, getDocument } from "./documents.ts";
import {
  deleteDocumentTermsStatement,
  ensureKeywordTable,
  indexedTerms,
  insertTermsStatement,
  keywordTable,
} from "./keyword-index.ts";
import { contentTypeOf, parseDocument } from "./parse.ts";
import { passageText } from "./passage-text.ts";
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
 *
 * Concurrent writers of one document are told the truth: each notes the generation it started
 * from, and its batch applies only if that is still the document's generation (every statement is
 * conditional on it), moving it on by one. The first to land is `created` (the document had no
 * content yet) or `replaced`; a writer overtaken meanwhile stores nothing and gets a 409, and a
 * knowledge base or document deleted meanwhile is a 404. So the generation counts exactly the
 * writes that were answered as stored.
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

  const { documentId, base } = existing
    ? { documentId: existing.id, base: existing.generation }
    : await placeholder({ db, input, type, size });
  const generation = base + 1;
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
    // Unique per write, so two writers racing on one generation never share (or delete) a vector.
    const write = crypto.randomUUID().slice(0, 8);
    newIds = chunks.map((c) => `${documentId}:${generation}.${write}:${c.position}`);
    await backends.vectorIndex.upsert(
      tenantId,
      newIds.map((id, i) => ({ id, kbId, documentId, values: vectors[i] as number[] })),
    );

    const table = await keywordTable(tenantId);
    await ensureKeywordTable(db, table);
    // Every statement applies only while the document is still at the generation this write began from.
    const current = "EXISTS (SELECT 1 FROM documents WHERE id = ?1 AND generation = ?2)";
    const results = await db.batch([
      deleteDocumentTermsStatement(db, table, documentId, base),
      db.prepare(`DELETE FROM chunks WHERE document_id = ?1 AND ${current} RETURNING id`).bind(documentId, base),
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
        { tenantId, kbId, documentId, generation: base },
      ),
      db
        .prepare(
          `UPDATE documents SET title = ?3, content_type = ?4, content_hash = ?5, size_bytes = ?6, status = 'ready', error = NULL,
             chunk_count = ?7, source = ?8, generation = ?2 + 1, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
           WHERE id = ?1 AND generation = ?2 RETURNING ${DOCUMENT_COLUMNS}`,
        )
        .bind(documentId, base, title, type, contentHash, size, chunks.length, input.source ?? existing?.source ?? "upload"),
    ]);
    const document = results.at(-1)?.results[0] as DocumentRow | undefined;
    if (!document) throw await overtaken({ db, documentId, filename });
    const oldIds = ((results[1]?.results ?? []) as { id: string }[]).map((r) => r.id);
    await removeVectorsQuietly(backends.vectorIndex, tenantId, oldIds, "replaced_chunks");
    return { status: base === 0 ? "created" : "replaced", document };
  } catch (error) {
    await removeVectorsQuietly(backends.vectorIndex, tenantId, newIds, "failed_ingestion");
    if (error instanceof AppError && (error.code === "conflict" || error.code === "not_found")) throw error;
    const reason = error instanceof AppError ? error.message : "indexing failed unexpectedly";
    // A new document is kept as failed, with the reason; a replacement leaves the previous
    // version serving and records why the new one was refused. A later writer's state is kept.
    await db
      .prepare(
        `UPDATE documents SET status = CASE WHEN chunk_count = 0 THEN 'failed' ELSE status END, error = ?3,
           updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1 AND generation = ?2`,
      )
      .bind(documentId, base, base === 0 ? reason : `replacement refused: ${reason}`)
      .run();
    throw error;
  }
}

/**
 * The row a new file name's first upload fills in: inserted as `processing` at generation 0, or,
 * when another upload of the same name inserted it a moment ago, that row as it stands.
 */
async function placeholder({
  db,
  input,
  type,
  size,
}: {
  db: D1Database;
  input: IngestInput;
  type: string;
  size: number;
}): Promise<{ documentId: string; base: number }> {
  const { tenantId, kbId, filename } = input;
  let row: { id: string; generation: number } | null;
  try {
    row = await db
      .prepare(
        `INSERT INTO documents (id, tenant_id, kb_id, title, filename, source, content_type, size_bytes, status)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'processing')
         ON CONFLICT (kb_id, filename) DO UPDATE SET generation = generation RETURNING id, generation`,
      )
      .bind(crypto.randomUUID(), tenantId, kbId, input.title ?? filename, filename, input.source ?? "upload", type, size)
      .first<{ id: string; generation: number }>();
  } catch (error) {
    // The knowledge base was deleted after the route found it (a FOREIGN KEY failure): a 404.
    if (!(await knowledgeBaseExists({ db, tenantId, kbId }))) throw knowledgeBaseGone();
    throw error;
  }
  if (!row) throw new Error("document upsert with RETURNING produced no row");
  return { documentId: row.id, base: row.generation };
}

/** Why a writer's batch applied nothing: the document is gone (404) or another write landed first (409). */
async function overtaken({ db, documentId, filename }: { db: D1Database; documentId: string; filename: string }) {
  const row = await db.prepare("SELECT 1 AS ok FROM documents WHERE id = ?1").bind(documentId).first();
  if (!row) return knowledgeBaseGone();
  return conflict(
    `Another upload of '${filename}' was stored while this one was being indexed, so this one was not stored. Check the document and upload again if yours should replace it.`,
  );
}

async function knowledgeBaseExists({ db, tenantId, kbId }: { db: D1Database; tenantId: string; kbId: string }) {
  return (
    (await db.prepare("SELECT 1 AS ok FROM knowledge_bases WHERE id = ?1 AND tenant_id = ?2").bind(kbId, tenantId).first()) !==
    null
  );
}

const knowledgeBaseGone = () =>
  notFound("The knowledge base or document was deleted while this upload was being indexed; nothing was stored.");

// D1 counts statements, not rows, against a request's query limit: rows go in as JSON, many a statement.
const ROWS_PER_STATEMENT = 200;

/** Inserts the chunks (and then their terms) only while the document is at `generation`. */
function insertChunkStatements(
  db: D1Database,
  table: string,
  rows: { id: string; position: number; heading_path: string; content: string; terms: string }[],
  owner: { tenantId: string; kbId: string; documentId: string; generation: number },
): D1PreparedStatement[] {
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const slice = JSON.stringify(rows.slice(i, i + ROWS_PER_STATEMENT));
    statements.push(
      db
        .prepare(
          `INSERT INTO chunks (id, tenant_id, kb_id, document_id, position, heading_path, content)
           SELECT value ->> '$.id', ?2, ?3, ?4, value ->> '$.position', value ->> '$.heading_path', value ->> '$.content' FROM json_each(?1)
            WHERE EXISTS (SELECT 1 FROM documents WHERE id = ?4 AND generation = ?5)`,
        )
        .bind(slice, owner.tenantId, owner.kbId, owner.documentId, owner.generation),
      insertTermsStatement(db, table, slice),
    );
  }
  return statements;
}
