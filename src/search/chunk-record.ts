// A passage as search reads it: the chunk with what it shows of its document.

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
}

/**
 * The columns of a `ChunkRecord`, over chunks `c` joined to their documents `d`; `content` is the
 * expression the content is read by (a statement may leave it out of some rows).
 */
export function chunkRecordColumns(content = "c.content"): string {
  return `c.id, c.kb_id, c.document_id, c.position, c.heading_path, ${content} AS content, d.title AS knowledge_title,
         d.filename AS knowledge_filename, d.content_type`;
}

/**
 * Chunks by id (?1, a JSON array) within the tenant (?2) and, unless ?3 is null, the knowledge
 * bases of ?3 (a JSON array), with their document's title and file name. The unary `+` keeps the
 * planner off the (tenant, knowledge base) index: with it, SQLite read every chunk of the knowledge
 * base to find the few asked for (48 ms at 50k chunks, against 0.3 ms by id). Exported for its
 * query-plan test.
 */
export const CHUNKS_BY_IDS_SQL = `SELECT ${chunkRecordColumns()}
    FROM chunks c JOIN documents d ON d.id = c.document_id
   WHERE c.id IN (SELECT value FROM json_each(?1)) AND +c.tenant_id = ?2
     AND (?3 IS NULL OR +c.kb_id IN (SELECT value FROM json_each(?3)))`;

/** Reads chunks by id, limited to the tenant and, unless `kbIds` is null, those knowledge bases. */
export function chunksByIdsStatement({
  db,
  tenantId,
  kbIds,
  ids,
}: {
  db: D1Database;
  tenantId: string;
  kbIds: string[] | null;
  ids: string[];
}): D1PreparedStatement {
  return db.prepare(CHUNKS_BY_IDS_SQL).bind(JSON.stringify(ids), tenantId, kbIds && JSON.stringify(kbIds));
}
