import { notFound } from "../errors.ts";
import { type DocumentRow, getDocument } from "./documents.ts";
import { FAQ_CONTENT_TYPE } from "./faq.ts";

/** A ready document with the knowledge base it belongs to, as a reader lists it. */
export interface ReadableDocument {
  id: string;
  kb_id: string;
  kb_name: string;
  title: string;
  filename: string;
  size_bytes: number;
  updated_at: string;
}

/**
 * One page of the tenant's ready documents (FAQ entries aside: they are read as entries), in a
 * fixed order (knowledge base name, file name, id), and whether more follow.
 */
export async function listReadableDocuments({
  db,
  tenantId,
  offset,
  limit,
}: {
  db: D1Database;
  tenantId: string;
  offset: number;
  limit: number;
}): Promise<{ documents: ReadableDocument[]; more: boolean }> {
  const { results } = await db
    .prepare(
      `SELECT d.id, d.kb_id, k.name AS kb_name, d.title, d.filename, d.size_bytes, d.updated_at
         FROM documents d JOIN knowledge_bases k ON k.id = d.kb_id AND k.tenant_id = d.tenant_id
        WHERE d.tenant_id = ?1 AND d.status = 'ready' AND d.content_type <> ?2
        ORDER BY k.name, d.filename, d.id LIMIT ?3 OFFSET ?4`,
    )
    .bind(tenantId, FAQ_CONTENT_TYPE, limit + 1, offset)
    .all<ReadableDocument>();
  return { documents: results.slice(0, limit), more: results.length > limit };
}

/**
 * A ready document of the tenant's knowledge base as Markdown, rebuilt from its chunks: each
 * section under its headings (one `#` a level of the path), the sentences a chunk repeats from the
 * one before (the overlap) said once. Not-found (404) for another tenant's, an unknown, a
 * not-yet-searchable or an FAQ document alike.
 */
export async function documentMarkdown({
  db,
  tenantId,
  kbId,
  documentId,
}: {
  db: D1Database;
  tenantId: string;
  kbId: string;
  documentId: string;
}): Promise<{ document: DocumentRow; markdown: string }> {
  const document = await getDocument({ db, tenantId, kbId, documentId });
  // A document being re-read by the ingestion job still serves its previous version: it has chunks.
  if (document.chunk_count === 0 || document.content_type === FAQ_CONTENT_TYPE) {
    throw notFound(`No document '${documentId}' in this knowledge base.`);
  }
  const { results } = await db
    .prepare("SELECT heading_path, content FROM chunks WHERE document_id = ?1 AND tenant_id = ?2 ORDER BY position")
    .bind(documentId, tenantId)
    .all<{ heading_path: string; content: string }>();
  return { document, markdown: rebuild(results) };
}

const PATH_SEPARATOR = " > ";

function rebuild(chunks: { heading_path: string; content: string }[]): string {
  const blocks: string[] = [];
  let path: string[] = [];
  let previous = "";
  for (const chunk of chunks) {
    const next = chunk.heading_path ? chunk.heading_path.split(PATH_SEPARATOR) : [];
    const same = next.length === path.length && next.every((title, i) => title === path[i]);
    if (!same) {
      let shared = 0;
      while (shared < next.length && shared < path.length && next[shared] === path[shared]) shared++;
      for (let level = shared; level < next.length; level++) blocks.push(`${"#".repeat(Math.min(level + 1, 6))} ${next[level]}`);
      path = next;
      previous = "";
    }
    const fresh = withoutOverlap(previous, chunk.content);
    if (fresh) blocks.push(fresh);
    previous = chunk.content;
  }
  return `${blocks.join("\n\n")}\n`;
}

/** The most characters an overlap can span: `CHUNK_OVERLAP` is at most 1000, three Latin characters a unit. */
const MAX_OVERLAP_CHARS = 3000;
const SENTENCE_END = /[。！？；!?.”’"')）]/;

/**
 * `content` less the whole sentences it starts with that end `previous` (the chunker repeats a
 * chunk's trailing sentences at the start of the next). Only ends of sentences are tried, longest
 * first, so the work is a few comparisons a chunk.
 */
function withoutOverlap(previous: string, content: string): string {
  for (let end = Math.min(previous.length, content.length, MAX_OVERLAP_CHARS); end > 0; end--) {
    if (!SENTENCE_END.test(content[end - 1] as string)) continue;
    if (previous.endsWith(content.slice(0, end))) return content.slice(end).trimStart();
  }
  return content;
}
