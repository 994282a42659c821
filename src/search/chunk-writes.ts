import { conflict, notFound } from "../errors.ts";
import type { SearchBackends } from "./backends.ts";
import { type Chunk, type ChunkOptions, chunkText } from "./chunker.ts";
import { DOCUMENT_COLUMNS, type DocumentRow, documentOf } from "./documents.ts";
import type { FileProblem } from "./file-problem.ts";
import { ensureKeywordTable, indexedTerms, insertTermsStatement, keywordTable } from "./keyword-index.ts";
import type { ParsedDocument } from "./parsed-document.ts";
import { passageText } from "./passage-text.ts";

/** A document's chunks and the text each is embedded and keyword-indexed by. */
export interface PreparedChunks {
  title: string;
  chunks: Chunk[];
  texts: string[];
}

/** Chunks a parsed document under its title; the same text always gives the same chunks. */
export function prepareChunks(parsed: ParsedDocument, title: string, chunking: ChunkOptions): PreparedChunks {
  const chunks = chunkText(parsed.text, chunking);
  const texts = chunks.map((c) =>
    passageText({ knowledge_title: title, heading_path: c.headingPath.join(" > "), content: c.content }),
  );
  return { title, chunks, texts };
}

/** The ids of a write's chunks: unique per write, so two writers racing on one generation never share (or delete) a vector. */
export function chunkIds(documentId: string, generation: number, write: string, count: number): string[] {
  return Array.from({ length: count }, (_, position) => `${documentId}:${generation}.${write}:${position}`);
}

/** Embeds the chunks `from` to `to` (exclusive) and puts their vectors in the index under `ids`. */
export async function embedChunks({
  backends,
  tenantId,
  kbId,
  documentId,
  prepared,
  ids,
  from = 0,
  to = prepared.chunks.length,
}: {
  backends: SearchBackends;
  tenantId: string;
  kbId: string;
  documentId: string;
  prepared: PreparedChunks;
  ids: string[];
  from?: number;
  to?: number;
}): Promise<void> {
  if (from >= to) return;
  const vectors = await backends.embedder.embed(prepared.texts.slice(from, to));
  await backends.vectorIndex.upsert(
    tenantId,
    vectors.map((values, i) => ({ id: ids[from + i] as string, kbId, documentId, values })),
  );
}

/**
 * The one D1 batch that swaps a document's old chunks for the new in the chunk table and the
 * keyword index and marks it ready. Every statement applies only while the document is still at
 * generation `base` (and, for a job, while `jobId` is still its job), so a writer overtaken
 * meanwhile stores nothing: `null` then. Returns the document as stored and the ids of the chunks
 * it replaced, whose vectors the caller removes.
 */
export async function commitChunks({
  db,
  tenantId,
  kbId,
  documentId,
  base,
  prepared,
  ids,
  document,
  jobId,
}: {
  db: D1Database;
  tenantId: string;
  kbId: string;
  documentId: string;
  base: number;
  prepared: PreparedChunks;
  ids: string[];
  document: { kind: string; contentHash: string; size: number; source: string };
  jobId?: string | undefined;
}): Promise<{ document: DocumentRow; replaced: string[] } | null> {
  const table = await keywordTable(tenantId);
  await ensureKeywordTable(db, table);
  const rows = prepared.chunks.map((chunk, i) => ({
    id: ids[i] as string,
    position: chunk.position,
    heading_path: chunk.headingPath.join(" > "),
    content: chunk.content,
    page: chunk.location.page ?? null,
    sheet: chunk.location.sheet ?? null,
    terms: indexedTerms(prepared.texts[i] as string),
  }));
  // A job's write also needs its job to be the document's current one; without a job, no condition.
  const jobCondition = "(?3 IS NULL OR EXISTS (SELECT 1 FROM document_jobs WHERE document_id = ?1 AND job_id = ?3))";
  const current = `EXISTS (SELECT 1 FROM documents WHERE id = ?1 AND generation = ?2) AND ${jobCondition}`;
  const results = await db.batch([
    db
      .prepare(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM chunks WHERE document_id = ?1) AND ${current}`)
      .bind(documentId, base, jobId ?? null),
    db.prepare(`DELETE FROM chunks WHERE document_id = ?1 AND ${current} RETURNING id`).bind(documentId, base, jobId ?? null),
    ...insertChunkStatements(db, table, rows, { tenantId, kbId, documentId, generation: base, jobId }),
    db
      .prepare(
        `UPDATE documents SET title = ?4, content_type = ?5, content_hash = ?6, size_bytes = ?7, status = 'ready', error = NULL,
           error_reason = NULL, error_params = NULL, chunk_count = ?8, source = ?9, generation = ?2 + 1,
           updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ?1 AND generation = ?2 AND ${jobCondition} RETURNING ${DOCUMENT_COLUMNS}`,
      )
      .bind(
        documentId,
        base,
        jobId ?? null,
        prepared.title,
        document.kind,
        document.contentHash,
        document.size,
        prepared.chunks.length,
        document.source,
      ),
  ]);
  const stored = results.at(-1)?.results[0] as Parameters<typeof documentOf>[0] | undefined;
  if (!stored) return null;
  return { document: documentOf(stored), replaced: ((results[1]?.results ?? []) as { id: string }[]).map((r) => r.id) };
}

// D1 counts statements, not rows, against a request's query limit: rows go in as JSON, many a statement.
const ROWS_PER_STATEMENT = 200;

/** Inserts the chunks (and then their terms) only while the document is at `generation` (and `jobId` is its job). */
function insertChunkStatements(
  db: D1Database,
  table: string,
  rows: {
    id: string;
    position: number;
    heading_path: string;
    content: string;
    page: number | null;
    sheet: string | null;
    terms: string;
  }[],
  owner: { tenantId: string; kbId: string; documentId: string; generation: number; jobId?: string | undefined },
): D1PreparedStatement[] {
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const slice = JSON.stringify(rows.slice(i, i + ROWS_PER_STATEMENT));
    statements.push(
      db
        .prepare(
          `INSERT INTO chunks (id, tenant_id, kb_id, document_id, position, heading_path, content, page, sheet)
           SELECT value ->> '$.id', ?2, ?3, ?4, value ->> '$.position', value ->> '$.heading_path', value ->> '$.content',
                  value ->> '$.page', value ->> '$.sheet' FROM json_each(?1)
            WHERE EXISTS (SELECT 1 FROM documents WHERE id = ?4 AND generation = ?5)
              AND (?6 IS NULL OR EXISTS (SELECT 1 FROM document_jobs WHERE document_id = ?4 AND job_id = ?6))`,
        )
        .bind(slice, owner.tenantId, owner.kbId, owner.documentId, owner.generation, owner.jobId ?? null),
      insertTermsStatement(db, table, slice),
    );
  }
  return statements;
}

/**
 * Records why a write of a document failed, only while the document is still at `base`: a new
 * document (no chunks yet) becomes `failed`; a replacement leaves the previous version serving and
 * notes why the new one was refused. The reason code and its figures are kept for each person's
 * language, the English sentence for the API.
 */
export function recordFailure({
  db,
  documentId,
  base,
  message,
  problem,
  jobId,
}: {
  db: D1Database;
  documentId: string;
  base: number;
  message: string;
  problem: FileProblem | null;
  /** A job's failure is recorded only while it is still the document's job. */
  jobId?: string | undefined;
}): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE documents SET status = CASE WHEN chunk_count = 0 THEN 'failed' ELSE status END,
         error = CASE WHEN chunk_count = 0 THEN ?3 ELSE 'replacement refused: ' || ?3 END, error_reason = ?4, error_params = ?5,
         updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
       WHERE id = ?1 AND generation = ?2 AND (?6 IS NULL OR EXISTS (SELECT 1 FROM document_jobs WHERE document_id = ?1 AND job_id = ?6))`,
    )
    .bind(documentId, base, message, problem?.reason ?? "index_failed", JSON.stringify(problem?.params ?? {}), jobId ?? null);
}

/** Why a writer's batch applied nothing: the document is gone (404) or another write landed first (409). */
export async function overtaken({ db, documentId, filename }: { db: D1Database; documentId: string; filename: string }) {
  const row = await db.prepare("SELECT 1 AS ok FROM documents WHERE id = ?1").bind(documentId).first();
  if (!row) return knowledgeBaseGone();
  return conflict(
    `Another upload of '${filename}' was stored while this one was being indexed, so this one was not stored. Check the document and upload again if yours should replace it.`,
  );
}

export const knowledgeBaseGone = () =>
  notFound("The knowledge base or document was deleted while this upload was being indexed; nothing was stored.");
