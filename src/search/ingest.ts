import { AppError } from "../errors.ts";
import { sha256Hex } from "../sha256.ts";
import type { SearchBackends } from "./backends.ts";
import {
  chunkIds,
  commitChunks,
  embedChunks,
  knowledgeBaseGone,
  overtaken,
  prepareChunks,
  recordFailure,
} from "./chunk-writes.ts";
import { type ChunkOptions, DEFAULT_CHUNKING } from "./chunker.ts";
import { type DocumentRow, findDocument, getDocument } from "./documents.ts";
import { problemOf } from "./file-problem.ts";
import { checkSize, type FileKind, fileKindOf, isBinaryKind, MAX_BYTES } from "./file-types.ts";
import type { Ingestion } from "./ingestion.ts";
import { enqueueJob } from "./ingestion-job.ts";
import { parseContent, precheckFile } from "./parse-file.ts";
import { removeVectorsQuietly } from "./vector-index.ts";

/** The largest Markdown, text or HTML document (other kinds: `MAX_BYTES` in file-types.ts). */
export const MAX_DOCUMENT_BYTES = MAX_BYTES.markdown;

/**
 * Files of a binary kind up to this size are read inside the upload's request unless the client
 * asks for a job (`Prefer: respond-async`); larger ones go to the ingestion job, whose steps each
 * have their own time and survive a restart. A 256 kB PDF is a few dozen pages.
 */
export const INLINE_MAX_BYTES = 256 * 1024;

export interface IngestInput {
  tenantId: string;
  kbId: string;
  filename: string;
  /** The document's text, or a file's bytes (any kind: text files are decoded, UTF-8 or GB18030). */
  content: string | Uint8Array;
  title?: string | undefined;
  contentType?: string | undefined;
  source?: string | undefined;
  /** Replace this document (by id) rather than match by file name. */
  replaceId?: string | undefined;
}

export type IngestOutcome =
  | { status: "created" | "replaced" | "unchanged"; document: DocumentRow }
  /** Handed to the ingestion job: the document says where it stands (`GET …/documents/:id`). */
  | { status: "queued"; document: DocumentRow };

/**
 * Adds or replaces one document. Everything that can fail (parsing, embedding, the vector index)
 * happens before one D1 batch swaps the old chunks for the new in the chunk table and the keyword
 * index together; search joins vector hits against that table, so no search ever sees half a
 * document. The same content uploaded again changes nothing. A large file (or any file, when the
 * client prefers) goes to the ingestion job instead, which ends in the same one batch.
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
  ingestion,
  preferJob = false,
}: {
  db: D1Database;
  backends: SearchBackends;
  input: IngestInput;
  chunking?: ChunkOptions;
  /** The durable job engine; without one, every file is read in the request. */
  ingestion?: Ingestion | undefined;
  /** The client asked for the job whatever the size (`Prefer: respond-async`). */
  preferJob?: boolean;
}): Promise<IngestOutcome> {
  const { tenantId, kbId, filename, content } = input;
  const kind = fileKindOf(filename, input.contentType);
  if (typeof content === "string" && isBinaryKind(kind)) {
    throw new AppError(
      "unsupported_media_type",
      `'${filename}' is a ${kind} file: send its bytes as a multipart file (curl -F file=@${filename}) or as content_base64, not as text.`,
    );
  }
  const size = typeof content === "string" ? new TextEncoder().encode(content).length : content.length;
  checkSize(filename, kind, size);
  const contentHash = await contentHashOf(kind, input.title, content);
  const found = await findDocument({ db, tenantId, kbId, filename, contentHash });
  const existing = input.replaceId ? await getDocument({ db, tenantId, kbId, documentId: input.replaceId }) : found.byName;
  if (existing?.content_hash === contentHash && existing.status === "ready") return { status: "unchanged", document: existing };
  if (!existing && found.byContent) return { status: "unchanged", document: found.byContent };

  const { documentId, base } = existing
    ? { documentId: existing.id, base: existing.generation }
    : await placeholder({ db, input, kind, size });
  let newIds: string[] = [];
  try {
    // A large file goes to the job once what can be checked without parsing it has been (a 4xx now).
    if (typeof content !== "string" && isBinaryKind(kind) && ingestion && (preferJob || size > INLINE_MAX_BYTES)) {
      precheckFile(filename, kind, content);
      // A photo with no OCR model configured is told so now, not after a job.
      if (kind === "image") backends.ocr.require("photo");
      const document = await enqueueJob({
        db,
        ingestion,
        job: { tenantId, kbId, documentId, base, kind, title: input.title, contentHash, bytes: content },
      });
      return { status: "queued", document };
    }
    const parsed = await parseContent({ filename, kind, content, backends });
    const prepared = prepareChunks(parsed, input.title ?? parsed.title, chunking);
    if (prepared.chunks.length === 0) throw new AppError("unparseable_document", `'${filename}' has no text to index.`);
    newIds = chunkIds(documentId, base + 1, crypto.randomUUID().slice(0, 8), prepared.chunks.length);
    await embedChunks({ backends, tenantId, kbId, documentId, prepared, ids: newIds });
    const stored = await commitChunks({
      db,
      tenantId,
      kbId,
      documentId,
      base,
      prepared,
      ids: newIds,
      document: { kind, contentHash, size, source: input.source ?? existing?.source ?? "upload" },
    });
    if (!stored) throw await overtaken({ db, documentId, filename });
    await removeVectorsQuietly(backends.vectorIndex, tenantId, stored.replaced, "replaced_chunks");
    return { status: base === 0 ? "created" : "replaced", document: stored.document };
  } catch (error) {
    await removeVectorsQuietly(backends.vectorIndex, tenantId, newIds, "failed_ingestion");
    if (error instanceof AppError && (error.code === "conflict" || error.code === "not_found")) throw error;
    const message = error instanceof AppError ? error.message : "indexing failed unexpectedly";
    // A later writer's state is kept: the failure is recorded only at the generation this write began from.
    await recordFailure({
      db,
      documentId,
      base,
      message,
      problem: error instanceof AppError ? problemOf(error.details) : null,
    }).run();
    throw error;
  }
}

/** What makes two uploads the same: the kind, the title given, and the text or bytes. */
async function contentHashOf(kind: FileKind, title: string | undefined, content: string | Uint8Array): Promise<string> {
  if (typeof content === "string") return sha256Hex(`${kind}\n${title ?? ""}\n${content}`);
  const head = new TextEncoder().encode(`${kind}\n${title ?? ""}\n`);
  const all = new Uint8Array(head.length + content.length);
  all.set(head);
  all.set(content, head.length);
  const digest = await crypto.subtle.digest("SHA-256", all);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The row a new file name's first upload fills in: inserted as `processing` at generation 0, or,
 * when another upload of the same name inserted it a moment ago, that row as it stands.
 */
async function placeholder({
  db,
  input,
  kind,
  size,
}: {
  db: D1Database;
  input: IngestInput;
  kind: string;
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
      .bind(crypto.randomUUID(), tenantId, kbId, input.title ?? filename, filename, input.source ?? "upload", kind, size)
      .first<{ id: string; generation: number }>();
  } catch (error) {
    // The knowledge base was deleted after the route found it (a FOREIGN KEY failure): a 404.
    if (!(await knowledgeBaseExists({ db, tenantId, kbId }))) throw knowledgeBaseGone();
    throw error;
  }
  if (!row) throw new Error("document upsert with RETURNING produced no row");
  return { documentId: row.id, base: row.generation };
}

async function knowledgeBaseExists({ db, tenantId, kbId }: { db: D1Database; tenantId: string; kbId: string }) {
  return (
    (await db.prepare("SELECT 1 AS ok FROM knowledge_bases WHERE id = ?1 AND tenant_id = ?2").bind(kbId, tenantId).first()) !==
    null
  );
}
