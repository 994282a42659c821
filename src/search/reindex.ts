import { FAQ_CONTENT_TYPE } from "./faq.ts";
import { createKeywordTableStatements, indexedTerms, insertTermsStatement, keywordTable } from "./keyword-index.ts";
import { passageText } from "./passage-text.ts";
import type { SearchService } from "./service.ts";

/** Chunks indexed per step: one embedding call (a Workers AI request in production) and one D1 batch. */
export const CHUNKS_PER_STEP = 100;

/** What one step of rebuilding a workshop's indexes did. */
export interface ReindexStep {
  /** Chunks whose terms and vector were written in this step. */
  chunks: number;
  /** The last chunk rowid done, to go on after; null when the workshop is done. */
  after: number | null;
}

interface ChunkRow {
  rowid: number;
  id: string;
  kb_id: string;
  document_id: string;
  heading_path: string;
  content: string;
  title: string;
  content_type: string;
}

/**
 * One bounded step of rebuilding a workshop's keyword index and vectors from its chunks, as an
 * upload writes them: a passage's terms and vector from its document's title, its headings and its
 * text (an FAQ entry's from its question), under the chunk's own rowid and id. For a database
 * restored from a backup (which holds no keyword index and no vectors) and after D1 Time Travel
 * (whose vectors may be missing); writing a chunk's terms and vector again changes nothing, so a
 * step can be repeated. A chunk deleted meanwhile is skipped by the terms' join, and its vector is
 * harmless (search drops ids that are not in the chunk table).
 *
 * @example let after = null; do ({ after } = await reindexStep({ ...services.search, after })); while (after !== null)
 */
export async function reindexStep({
  db,
  tenantId,
  backends,
  after,
}: Pick<SearchService, "db" | "tenantId" | "backends"> & { after: number | null }): Promise<ReindexStep> {
  const table = await keywordTable(tenantId);
  const { results } = await db
    .prepare(
      `SELECT c.rowid, c.id, c.kb_id, c.document_id, c.heading_path, c.content, d.title, d.content_type
         FROM chunks c JOIN documents d ON d.id = c.document_id
        WHERE c.tenant_id = ?1 AND c.rowid > ?2 ORDER BY c.rowid LIMIT ?3`,
    )
    .bind(tenantId, after ?? 0, CHUNKS_PER_STEP)
    .all<ChunkRow>();
  if (results.length === 0) return { chunks: 0, after: null };
  const texts = results.map((row) =>
    row.content_type === FAQ_CONTENT_TYPE
      ? row.heading_path
      : passageText({ knowledge_title: row.title, heading_path: row.heading_path, content: row.content }),
  );
  const vectors = await backends.embedder.embed(texts);
  await backends.vectorIndex.upsert(
    tenantId,
    results.map((row, i) => ({ id: row.id, kbId: row.kb_id, documentId: row.document_id, values: vectors[i] as number[] })),
  );
  const terms = JSON.stringify(results.map((row, i) => ({ id: row.id, terms: indexedTerms(texts[i] as string) })));
  await db.batch([...createKeywordTableStatements(db, table), insertTermsStatement(db, table, terms)]);
  return { chunks: results.length, after: results.length === CHUNKS_PER_STEP ? (results.at(-1)?.rowid ?? null) : null };
}
