import { AppError, conflict, notFound } from "../errors.ts";
import type { SearchBackends } from "./backends.ts";
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

/** One FAQ entry as stored and served. */
export interface FaqEntry extends FaqEntryInput {
  id: string;
  kb_id: string;
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

const SELECT = `SELECT f.id, f.kb_id, f.question, f.similar_questions_json, f.answer, f.created_at, f.updated_at, d.generation
  FROM faq_entries f JOIN documents d ON d.id = f.id`;

function toEntry(row: FaqRow): FaqEntry {
  const { similar_questions_json, generation: _, ...rest } = row;
  return { ...rest, similar_questions: JSON.parse(similar_questions_json) as string[] };
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
 */
export async function saveFaqEntry({
  db,
  backends,
  tenantId,
  kbId,
  input,
  targetId,
  upsert = false,
}: {
  db: D1Database;
  backends: SearchBackends;
  tenantId: string;
  kbId: string;
  input: FaqEntryInput;
  targetId?: string | undefined;
  upsert?: boolean;
}): Promise<FaqSaveOutcome> {
  const entry = normaliseEntry(input);
  const sameQuestion = await findRow(db, tenantId, kbId, "question", entry.question);
  const existing = targetId ? await findRow(db, tenantId, kbId, "id", targetId) : upsert ? sameQuestion : null;
  if (targetId && !existing) throw notFound(`No FAQ entry '${targetId}' in this knowledge base.`);
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
  const generation = (existing?.generation ?? 0) + 1;
  const questions = [entry.question, ...entry.similar_questions];
  // A fresh token per save, so two concurrent saves of one entry never share chunk or vector ids.
  const token = crypto.randomUUID().slice(0, 8);
  const chunkIds = questions.map((_, i) => `${id}:${generation}.${token}:${i}`);
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
  let oldIds: string[] = [];
  try {
    const results = await db.batch([
      existing
        ? db
            .prepare(
              `UPDATE documents SET title = ?2, size_bytes = ?3, chunk_count = ?4, generation = ?5,
                 updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1`,
            )
            .bind(id, entry.question, size, questions.length, generation)
        : db
            .prepare(
              `INSERT INTO documents (id, tenant_id, kb_id, title, filename, source, content_type, size_bytes, status, chunk_count, generation)
               VALUES (?1, ?2, ?3, ?4, ?5, 'faq', ?6, ?7, 'ready', ?8, ?9)`,
            )
            .bind(id, tenantId, kbId, entry.question, faqFilename(id), FAQ_CONTENT_TYPE, size, questions.length, generation),
      existing
        ? db
            .prepare(
              `UPDATE faq_entries SET question = ?2, similar_questions_json = ?3, answer = ?4,
                 updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1`,
            )
            .bind(id, entry.question, JSON.stringify(entry.similar_questions), entry.answer)
        : db
            .prepare(
              "INSERT INTO faq_entries (id, tenant_id, kb_id, question, similar_questions_json, answer) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )
            .bind(id, tenantId, kbId, entry.question, JSON.stringify(entry.similar_questions), entry.answer),
      deleteDocumentTermsStatement(db, table, id),
      // The replaced chunks' ids come back from the delete itself, so a concurrent save's are never missed.
      db.prepare("DELETE FROM chunks WHERE document_id = ?1 RETURNING id").bind(id),
      db
        .prepare(
          `INSERT INTO chunks (id, tenant_id, kb_id, document_id, position, heading_path, content)
           SELECT value ->> '$.id', ?2, ?3, ?4, value ->> '$.position', value ->> '$.question', ?5 FROM json_each(?1)`,
        )
        .bind(rows, tenantId, kbId, id, entry.answer),
      insertTermsStatement(db, table, rows),
    ]);
    oldIds = ((results[3]?.results ?? []) as { id: string }[]).map((r) => r.id);
  } catch (error) {
    await removeVectorsQuietly(backends.vectorIndex, tenantId, chunkIds, "failed_faq_entry");
    // A concurrent writer saved the same question first: the batch rolled back whole.
    const winner = await findRow(db, tenantId, kbId, "question", entry.question);
    if (winner && winner.id !== id)
      throw conflict(`An entry with the question '${entry.question}' already exists (id ${winner.id}).`);
    throw error;
  }
  await removeVectorsQuietly(backends.vectorIndex, tenantId, oldIds, "replaced_faq_entry");
  return { status: existing ? "replaced" : "created", entry: await getFaqEntry({ db, tenantId, kbId, id }) };
}
