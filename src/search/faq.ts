import { AppError, conflict, notFound } from "../errors.ts";
import type { SearchBackends } from "./backends.ts";
import { deleteDocument } from "./documents.ts";
import {
  deleteDocumentTermsStatement,
  ensureKeywordTable,
  indexedTerms,
  insertTermsStatement,
  keywordTable,
} from "./keyword-index.ts";
import { getKnowledgeBase, type KnowledgeBase } from "./knowledge-bases.ts";
import { removeVectorsQuietly } from "./vector-index.ts";

/** The content type FAQ entries carry in `documents`, which is how search tells them apart. */
export const FAQ_CONTENT_TYPE = "faq";

/** The file name an FAQ entry's document row carries (WeKnora's results need one); readers tell FAQ results by it. */
export function faqFilename(entryId: string): string {
  return `faq-${entryId}`;
}

/** What a person writes for one entry. */
export interface FaqEntryInput {
  question: string;
  similar_questions: string[];
  answer: string;
}

/** One FAQ entry as stored and served; `version` moves on by one with every stored change. */
export interface FaqEntry extends FaqEntryInput {
  id: string;
  kb_id: string;
  version: number;
  created_at: string;
  updated_at: string;
}

export type FaqSaveOutcome = { status: "created" | "replaced" | "unchanged"; entry: FaqEntry };

interface FaqRow {
  id: string;
  kb_id: string;
  question: string;
  similar_questions_json: string;
  answer: string;
  created_at: string;
  updated_at: string;
  generation: number;
}

const ENTRY_COLUMNS = "id, kb_id, question, similar_questions_json, answer, created_at, updated_at";
const SELECT = `SELECT f.id, f.kb_id, f.question, f.similar_questions_json, f.answer, f.created_at, f.updated_at, d.generation
  FROM faq_entries f JOIN documents d ON d.id = f.id`;

function toEntry(row: FaqRow): FaqEntry {
  const { similar_questions_json, generation, ...rest } = row;
  return { ...rest, version: generation, similar_questions: JSON.parse(similar_questions_json) as string[] };
}

/** The knowledge base, which must be the tenant's and of type `faq`. */
export async function requireFaqBase({ db, tenantId, kbId }: { db: D1Database; tenantId: string; kbId: string }) {
  const kb: KnowledgeBase = await getKnowledgeBase({ db, tenantId, id: kbId });
  if (kb.type !== "faq") {
    throw new AppError(
      "unprocessable",
      `'${kb.name}' is a document knowledge base; FAQ entries go into a base created with type 'faq'.`,
    );
  }
  return kb;
}

/** The entries of an FAQ base, by question. */
export async function listFaqEntries({ db, tenantId, kbId }: { db: D1Database; tenantId: string; kbId: string }) {
  const { results } = await db
    .prepare(`${SELECT} WHERE f.tenant_id = ?1 AND f.kb_id = ?2 ORDER BY f.question`)
    .bind(tenantId, kbId)
    .all<FaqRow>();
  return results.map(toEntry);
}

async function findRow(db: D1Database, tenantId: string, kbId: string, where: "id" | "question", value: string) {
  return db
    .prepare(`${SELECT} WHERE f.tenant_id = ?1 AND f.kb_id = ?2 AND f.${where} = ?3`)
    .bind(tenantId, kbId, value)
    .first<FaqRow>();
}

/** One entry of the tenant's FAQ base, or a 404. */
export async function getFaqEntry({ db, tenantId, kbId, id }: { db: D1Database; tenantId: string; kbId: string; id: string }) {
  const row = await findRow(db, tenantId, kbId, "id", id);
  if (!row) throw notFound(`No FAQ entry '${id}' in this knowledge base.`);
  return toEntry(row);
}

/** Trims, drops empty and repeated similar questions (and the standard one among them). */
export function normaliseEntry(input: FaqEntryInput): FaqEntryInput {
  const question = input.question.trim();
  const similar = [...new Set(input.similar_questions.map((q) => q.trim()))].filter((q) => q && q !== question);
  return { question, similar_questions: similar, answer: input.answer.trim() };
}

/**
 * Adds an entry, or replaces `target` (by id) or, with `upsert`, the entry with the same standard
 * question. Questions are embedded first; then one D1 batch writes the entry, its document row,
 * one chunk per question (the answer as content) and their keyword rows, so a search never sees
 * half an entry. The same entry saved again changes nothing.
 *
 * A replacement is a compare-and-swap on the version it read (the document's generation): every
 * statement of its batch applies only while the entry is still at that version, the version's own
 * move last, so of writers racing from one version exactly one is stored and the others get a 409
 * with the entry as it now stands. `ifVersion` (a client's `If-Match`) makes the check reach back
 * to when the client read the entry: a version it does not list is a 409 before anything is done.
 */
export async function saveFaqEntry({
  db,
  backends,
  tenantId,
  kbId,
  input,
  targetId,
  upsert = false,
  ifVersion,
}: {
  db: D1Database;
  backends: SearchBackends;
  tenantId: string;
  kbId: string;
  input: FaqEntryInput;
  targetId?: string | undefined;
  upsert?: boolean;
  ifVersion?: readonly number[] | undefined;
}): Promise<FaqSaveOutcome> {
  const entry = normaliseEntry(input);
  const sameQuestion = await findRow(db, tenantId, kbId, "question", entry.question);
  const existing = targetId ? await findRow(db, tenantId, kbId, "id", targetId) : upsert ? sameQuestion : null;
  if (targetId && !existing) throw notFound(`No FAQ entry '${targetId}' in this knowledge base.`);
  if (existing && ifVersion && !ifVersion.includes(existing.generation)) throw staleEntry(existing, ifVersion);
  if (sameQuestion && sameQuestion.id !== existing?.id) {
    throw conflict(`An entry with the question '${entry.question}' already exists (id ${sameQuestion.id}).`);
  }
  if (
    existing &&
    existing.question === entry.question &&
    existing.answer === entry.answer &&
    existing.similar_questions_json === JSON.stringify(entry.similar_questions)
  ) {
    return { status: "unchanged", entry: toEntry(existing) };
  }

  const id = existing?.id ?? crypto.randomUUID();
  // The chunk statements check the version the batch starts from: a new entry's row is inserted
  // at version 1 earlier in the same batch, a replacement's is the one it read.
  const base = existing?.generation ?? 1;
  const version = existing ? base + 1 : 1;
  const questions = [entry.question, ...entry.similar_questions];
  // A fresh token per save, so two concurrent saves of one entry never share chunk or vector ids.
  const token = crypto.randomUUID().slice(0, 8);
  const chunkIds = questions.map((_, i) => `${id}:${version}.${token}:${i}`);
  const vectors = await backends.embedder.embed(questions);
  await backends.vectorIndex.upsert(
    tenantId,
    chunkIds.map((chunkId, i) => ({ id: chunkId, kbId, documentId: id, values: vectors[i] as number[] })),
  );
  const table = await keywordTable(tenantId);
  await ensureKeywordTable(db, table);
  const rows = JSON.stringify(
    questions.map((question, i) => ({ id: chunkIds[i], position: i, question, terms: indexedTerms(question) })),
  );
  const size = new TextEncoder().encode(JSON.stringify(entry)).length;
  const similar = JSON.stringify(entry.similar_questions);
  const current = "EXISTS (SELECT 1 FROM documents WHERE id = ?1 AND generation = ?2)";
  const chunkStatements = [
    deleteDocumentTermsStatement(db, table, id, base),
    // The replaced chunks' ids come back from the delete itself, so a concurrent save's are never missed.
    db.prepare(`DELETE FROM chunks WHERE document_id = ?1 AND ${current} RETURNING id`).bind(id, base),
    db
      .prepare(
        `INSERT INTO chunks (id, tenant_id, kb_id, document_id, position, heading_path, content)
         SELECT value ->> '$.id', ?3, ?4, ?1, value ->> '$.position', value ->> '$.question', ?5 FROM json_each(?6)
          WHERE ${current}`,
      )
      .bind(id, base, tenantId, kbId, entry.answer, rows),
    insertTermsStatement(db, table, rows),
  ];
  let stored: Omit<FaqRow, "generation"> | undefined;
  let oldIds: string[] = [];
  try {
    if (existing) {
      const results = await db.batch([
        ...chunkStatements,
        db
          .prepare(
            `UPDATE faq_entries SET question = ?3, similar_questions_json = ?4, answer = ?5,
               updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1 AND ${current} RETURNING ${ENTRY_COLUMNS}`,
          )
          .bind(id, base, entry.question, similar, entry.answer),
        db
          .prepare(
            `UPDATE documents SET title = ?3, size_bytes = ?4, chunk_count = ?5, generation = ?2 + 1,
               updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1 AND generation = ?2 RETURNING id`,
          )
          .bind(id, base, entry.question, size, questions.length),
      ]);
      if ((results.at(-1)?.results.length ?? 0) === 0) throw await overtaken(db, tenantId, kbId, existing);
      oldIds = ((results[1]?.results ?? []) as { id: string }[]).map((r) => r.id);
      stored = results.at(-2)?.results[0] as typeof stored;
    } else {
      const results = await db.batch([
        db
          .prepare(
            `INSERT INTO documents (id, tenant_id, kb_id, title, filename, source, content_type, size_bytes, status, chunk_count, generation)
             VALUES (?1, ?2, ?3, ?4, ?5, 'faq', ?6, ?7, 'ready', ?8, 1)`,
          )
          .bind(id, tenantId, kbId, entry.question, faqFilename(id), FAQ_CONTENT_TYPE, size, questions.length),
        db
          .prepare(
            `INSERT INTO faq_entries (id, tenant_id, kb_id, question, similar_questions_json, answer)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING ${ENTRY_COLUMNS}`,
          )
          .bind(id, tenantId, kbId, entry.question, similar, entry.answer),
        ...chunkStatements,
      ]);
      stored = results[1]?.results[0] as typeof stored;
    }
  } catch (error) {
    await removeVectorsQuietly(backends.vectorIndex, tenantId, chunkIds, "failed_faq_entry");
    if (error instanceof AppError) throw error;
    // A concurrent writer saved the same question first: the batch rolled back whole.
    const winner = await findRow(db, tenantId, kbId, "question", entry.question);
    if (winner && winner.id !== id)
      throw conflict(`An entry with the question '${entry.question}' already exists (id ${winner.id}).`);
    // The base was deleted meanwhile (a FOREIGN KEY failure): a 404, nothing stored.
    await getKnowledgeBase({ db, tenantId, id: kbId });
    throw error;
  }
  await removeVectorsQuietly(backends.vectorIndex, tenantId, oldIds, "replaced_faq_entry");
  if (!stored) throw new Error("FAQ entry write with RETURNING produced no row");
  // What this writer stored, even if another has replaced it since.
  return { status: existing ? "replaced" : "created", entry: toEntry({ ...stored, generation: version }) };
}

/**
 * Deletes an entry with its chunks, keyword rows and vectors. With `ifVersion` (a client's
 * `If-Match`), only while the entry is at one of those versions, checked in the delete's own batch;
 * otherwise whatever version it is at.
 */
export async function deleteFaqEntry({
  db,
  backends,
  tenantId,
  kbId,
  id,
  ifVersion,
}: {
  db: D1Database;
  backends: SearchBackends;
  tenantId: string;
  kbId: string;
  id: string;
  ifVersion?: readonly number[] | undefined;
}): Promise<void> {
  const row = await findRow(db, tenantId, kbId, "id", id);
  if (!row) throw notFound(`No FAQ entry '${id}' in this knowledge base.`);
  if (ifVersion && !ifVersion.includes(row.generation)) throw staleEntry(row, ifVersion);
  const generation = ifVersion ? row.generation : undefined;
  const { deleted } = await deleteDocument({ db, backends, tenantId, kbId, documentId: id, generation });
  if (!deleted) throw await overtaken(db, tenantId, kbId, row);
}

/** A 409 for a client whose `If-Match` names a version the entry has moved on from, with the entry as it is. */
function staleEntry(row: FaqRow, ifVersion: readonly number[]): AppError {
  const sent = ifVersion.length > 0 ? ifVersion.map((v) => `"${v}"`).join(", ") : "no version Weft issued";
  return new AppError(
    "conflict",
    `This FAQ entry was changed since you read it: it is at version ${row.generation}, your If-Match names ${sent}. Nothing was saved; the entry as it now stands is in details.current. Apply your change to it and send it again with If-Match "${row.generation}".`,
    { details: { current: toEntry(row) } },
  );
}

/** Why a compare-and-swap applied nothing: the entry was deleted (404) or another write landed first (409). */
async function overtaken(db: D1Database, tenantId: string, kbId: string, read: FaqRow): Promise<AppError> {
  const now = await findRow(db, tenantId, kbId, "id", read.id);
  if (!now) return notFound(`FAQ entry '${read.id}' was deleted meanwhile; nothing was saved.`);
  return new AppError(
    "conflict",
    `Another change to this FAQ entry was stored while yours was being written (it went from version ${read.generation} to ${now.generation}), so yours was not. Nothing of it was kept; the entry as it now stands is in details.current. Send your change again with If-Match "${now.generation}" if it should win.`,
    { details: { current: toEntry(now) } },
  );
}
