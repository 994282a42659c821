// A passage as search reads it: the chunk with what it shows of its document.

import { LruMap } from "../lru-map.ts";

export interface ChunkRecord {
  id: string;
  kb_id: string;
  document_id: string;
  position: number;
  heading_path: string;
  content: string;
  knowledge_title: string;
  knowledge_filename: string;
  /** The document's content type: `faq` for an FAQ entry, whose chunks are its questions. */
  content_type: string;
  /** The PDF page the chunk is on, or null. */
  page: number | null;
  /** The spreadsheet's sheet the chunk's rows are from, or null. */
  sheet: string | null;
}

/**
 * The columns of a `ChunkRecord`, over chunks `c` joined to their documents `d`; where `omitted` (an
 * SQL condition) holds, every column but the id is null, for a chunk the caller has already.
 */
export function chunkRecordColumns(omitted = "0"): string {
  const unless = (column: string, as: string) => `CASE WHEN ${omitted} THEN NULL ELSE ${column} END AS ${as}`;
  return `c.id, ${unless("c.kb_id", "kb_id")}, ${unless("c.document_id", "document_id")}, ${unless("c.position", "position")},
         ${unless("c.heading_path", "heading_path")}, ${unless("c.content", "content")}, ${unless("d.title", "knowledge_title")},
         ${unless("d.filename", "knowledge_filename")}, ${unless("d.content_type", "content_type")},
         ${unless("c.page", "page")}, ${unless("c.sheet", "sheet")}`;
}

/**
 * Chunks by id (?1, a JSON array) within the tenant (?2) and, unless ?3 is null, the knowledge
 * bases of ?3 (a JSON array), with their document's title and file name; of those in ?4 (a JSON
 * array), the id only. The unary `+` keeps the planner off the (tenant, knowledge base) index:
 * with it, SQLite read every chunk of the knowledge base to find the few asked for (48 ms at 50k
 * chunks, against 0.3 ms by id). Exported for its query-plan test.
 */
export const CHUNKS_BY_IDS_SQL = `SELECT ${chunkRecordColumns("c.id IN (SELECT value FROM json_each(?4))")}
    FROM chunks c JOIN documents d ON d.id = c.document_id
   WHERE c.id IN (SELECT value FROM json_each(?1)) AND +c.tenant_id = ?2
     AND (?3 IS NULL OR +c.kb_id IN (SELECT value FROM json_each(?3)))`;

/**
 * Reads chunks by id, limited to the tenant and, unless `kbIds` is null, those knowledge bases: a
 * statement, and what reads its rows, giving the chunks this isolate keeps (`keptChunks`) from
 * memory, as their ids alone are read.
 */
export function chunksByIds({
  db,
  tenantId,
  kbIds,
  ids,
}: {
  db: D1Database;
  tenantId: string;
  kbIds: string[] | null;
  ids: string[];
}): { statement: D1PreparedStatement; read: (result: D1Result | undefined) => ChunkRecord[] } {
  // Taken now: the memory may let one go before the rows come back.
  const known = new Map(
    ids.flatMap((id): [string, ChunkRecord][] => {
      const chunk = keptChunks.get(id);
      return chunk ? [[id, chunk]] : [];
    }),
  );
  const statement = db
    .prepare(CHUNKS_BY_IDS_SQL)
    .bind(JSON.stringify(ids), tenantId, kbIds && JSON.stringify(kbIds), JSON.stringify([...known.keys()]));
  const read = (result: D1Result | undefined) =>
    ((result?.results ?? []) as (ChunkRecord | OmittedChunk)[]).map((row) => known.get(row.id) ?? keepChunk(row as ChunkRecord));
  return { statement, read };
}

/** A row of a chunk the statement left out all but the id of. */
export type OmittedChunk = { id: string } & { [K in Exclude<keyof ChunkRecord, "id">]: null };

// A chunk never changes under its id: writing a document again gives its chunks new ids, and the
// batch that deletes the old ones sets the document's new title and type. So an isolate keeps the
// records it has read of the latest chunks, and a search reads of a kept one only its id, which
// still says it exists and is in the search's scope. Keyed by the chunk's id, unique across
// workshops; only a statement's own rows, scoped to the caller, lead to one. Bounded by their
// content, 2,000,000 characters in all (about 4 MB; each chunk kept holds at most 2,000, while an
// FAQ question's chunk holds the whole answer, up to 10,000): 1,024 chunks at most served a few
// workshops, and a deployment of a thousand read nearly every chunk again.
const keptChunks = new LruMap<string, ChunkRecord>(65_536, { weigh: (c) => c.content.length, budget: 2_000_000 });
const KEPT_CONTENT = 2_000;

/** Keeps a chunk's record, read in full, for later searches unless its content is long; returns it. */
export function keepChunk(chunk: ChunkRecord): ChunkRecord {
  if (chunk.content.length <= KEPT_CONTENT) keptChunks.set(chunk.id, chunk);
  return chunk;
}
