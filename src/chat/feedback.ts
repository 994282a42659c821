import { notFound } from "../errors.ts";
import type { CitedSource, FeedbackRating, FeedbackView } from "../shapes.ts";
import type { WorkshopDb } from "../workshop-db.ts";
import { type ChatOwner, getChat, messageOf, type StoredRow } from "./history.ts";

const NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

/** A rating as the person who gave it sees it again. */
export interface Rating {
  chat_id: string;
  message_id: string;
  rating: FeedbackRating;
  comment: string | null;
  updated_at: string;
}

/**
 * Records the owner's rating of an answer in their chat (any version of it), with an optional
 * line; rating it again replaces the rating. 404 for a chat that is not theirs or a message that
 * is not an answer in it.
 */
export async function rateAnswer({
  db,
  owner,
  chatId,
  messageId,
  rating,
  comment,
}: {
  db: D1Database;
  owner: ChatOwner;
  chatId: string;
  messageId: string;
  rating: FeedbackRating;
  comment: string | null;
}): Promise<Rating> {
  await getChat({ db, owner, chatId });
  const row = await db
    .prepare(
      `INSERT INTO chat_feedback (id, tenant_id, chat_id, message_id, user_id, rating, comment)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7
        WHERE EXISTS (SELECT 1 FROM chat_messages WHERE chat_id = ?3 AND id = ?4 AND role = 'assistant')
       ON CONFLICT (chat_id, message_id) DO UPDATE SET rating = excluded.rating, comment = excluded.comment, updated_at = ${NOW}
       RETURNING chat_id, message_id, rating, comment, updated_at`,
    )
    .bind(`fb-${crypto.randomUUID()}`, owner.tenantId, chatId, messageId, owner.userId, rating, comment)
    .first<Rating>();
  if (!row) throw notFound(`No answer '${messageId.slice(0, 100)}' in this chat.`);
  return row;
}

/** Takes back the owner's rating of an answer; nothing to take back is no error. */
export async function unrateAnswer({
  db,
  owner,
  chatId,
  messageId,
}: {
  db: D1Database;
  owner: ChatOwner;
  chatId: string;
  messageId: string;
}): Promise<void> {
  await getChat({ db, owner, chatId });
  await db
    .prepare(`DELETE FROM chat_feedback WHERE chat_id = ?1 AND message_id = ?2 AND tenant_id = ?3 AND user_id = ?4`)
    .bind(chatId, messageId, owner.tenantId, owner.userId)
    .run();
}

interface FeedbackRow {
  id: string;
  rating: FeedbackRating;
  comment: string | null;
  chat_id: string;
  message_id: string;
  user_id: string;
  faq_kb_id: string | null;
  faq_entry_id: string | null;
  created_at: string;
  updated_at: string;
}

function textOf(parts: { type: string; text?: string }[]): string {
  return parts
    .filter((p) => p.type === "text")
    .map((p) => p.text ?? "")
    .join("\n")
    .trim();
}

/**
 * The workshop's most recent ratings of `rating` (newest first, `limit` of them), each with the
 * question asked, the answer given, the passages it was given and the tools it called: what a boss
 * needs to see where an answer went wrong. `names` reads people's names from the directory.
 */
export async function recentFeedback({
  store,
  rating,
  limit,
  before,
  names,
}: {
  store: WorkshopDb;
  rating: FeedbackRating;
  limit: number;
  /** Only ratings updated before this time (the previous page's last `updated_at`). */
  before?: string | undefined;
  names: (userIds: string[]) => Promise<Map<string, string>>;
}): Promise<FeedbackView[]> {
  const { db, tenantId } = store;
  const { results } = await db
    .prepare(
      `SELECT id, rating, comment, chat_id, message_id, user_id, faq_kb_id, faq_entry_id, created_at, updated_at
         FROM chat_feedback WHERE tenant_id = ?1 AND rating = ?2 AND (?3 IS NULL OR updated_at < ?3)
        ORDER BY updated_at DESC, id DESC LIMIT ?4`,
    )
    .bind(tenantId, rating, before ?? null, limit)
    .all<FeedbackRow>();
  if (results.length === 0) return [];
  const answers = await db.batch<StoredRow & { reply_to: string | null; chat_id: string }>(
    results.map((r) =>
      db
        .prepare(
          `SELECT a.id, a.role, a.parts, a.metadata, a.reply_to, a.chat_id FROM chat_messages a
            WHERE a.chat_id = ?1 AND a.id = ?2`,
        )
        .bind(r.chat_id, r.message_id),
    ),
  );
  const questions = await db.batch<StoredRow>(
    answers.map((a, i) =>
      db
        .prepare(`SELECT id, role, parts, metadata FROM chat_messages WHERE chat_id = ?1 AND id = ?2`)
        .bind(results[i]?.chat_id ?? "", a.results[0]?.reply_to ?? ""),
    ),
  );
  const named = await names([...new Set(results.map((r) => r.user_id))]);
  return results.map((r, i) => {
    const answerRow = answers[i]?.results[0];
    const questionRow = questions[i]?.results[0];
    const answer = answerRow ? messageOf(answerRow) : null;
    const sources: CitedSource[] = [];
    const tools: string[] = [];
    for (const part of answer?.parts ?? []) {
      if (part.type === "data-sources") sources.push(...((part.data as { sources: CitedSource[] }).sources ?? []));
      else if (part.type === "dynamic-tool") tools.push(part.toolName);
      else if (part.type.startsWith("tool-")) tools.push(part.type.slice("tool-".length));
    }
    return {
      id: r.id,
      rating: r.rating,
      comment: r.comment,
      chat_id: r.chat_id,
      message_id: r.message_id,
      person: { id: r.user_id, name: named.get(r.user_id) ?? null },
      question: questionRow ? textOf(messageOf(questionRow).parts) : "",
      answer: answer ? textOf(answer.parts) : "",
      sources: sources.filter((s, k) => sources.findIndex((o) => o.chunk_id === s.chunk_id) === k),
      tools: [...new Set(tools)],
      faq: r.faq_kb_id && r.faq_entry_id ? { kb_id: r.faq_kb_id, entry_id: r.faq_entry_id } : null,
      created_at: r.created_at,
      updated_at: r.updated_at,
    };
  });
}

/** Notes on a rating of the workshop's that a boss added FAQ entry `entryId` of base `kbId` from it. 404 for a rating it does not have. */
export async function noteFaqEntry({
  store,
  feedbackId,
  kbId,
  entryId,
}: {
  store: WorkshopDb;
  feedbackId: string;
  kbId: string;
  entryId: string;
}): Promise<void> {
  const row = await store.db
    .prepare(`UPDATE chat_feedback SET faq_kb_id = ?3, faq_entry_id = ?4 WHERE id = ?1 AND tenant_id = ?2 RETURNING id`)
    .bind(feedbackId, store.tenantId, kbId, entryId)
    .first();
  if (!row) throw notFound(`No feedback '${feedbackId.slice(0, 100)}'.`);
}
