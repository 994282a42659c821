import { AppError } from "../errors.ts";
import type { ChatMessageMetadata, MessageVersion } from "../shapes.ts";
import { type ChatOwner, getChat, messageOf, type StoredRow } from "./history.ts";

// Only the owner's chat is ever changed: every statement checks it itself.
const OWNED = "EXISTS (SELECT 1 FROM chats WHERE id = ?1 AND tenant_id = ?4 AND user_id = ?5)";

/** How many answers question `messageId` has had, current or earlier versions. */
export async function answersTo({
  db,
  chatId,
  messageId,
}: {
  db: D1Database;
  chatId: string;
  messageId: string;
}): Promise<number> {
  const row = await db
    .prepare(`SELECT COUNT(*) AS n FROM chat_messages WHERE chat_id = ?1 AND role = 'assistant' AND reply_to = ?2`)
    .bind(chatId, messageId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/**
 * Every answer to question `messageId` gives way to `replyId`, the answer being made again: they
 * leave the history and become its earlier versions. Written before the new answer is made, so a
 * reload meanwhile shows the question waiting for it rather than the old answer beside the new.
 */
export function hideAnswers(
  db: D1Database,
  { owner, chatId, messageId, replyId }: { owner: ChatOwner; chatId: string; messageId: string; replyId: string },
): D1PreparedStatement {
  return db
    .prepare(`UPDATE chat_messages SET replaced_by = ?3 WHERE chat_id = ?1 AND role = 'assistant' AND reply_to = ?2 AND ${OWNED}`)
    .bind(chatId, messageId, replyId, owner.tenantId, owner.userId);
}

/**
 * Question `oldId` is edited into `newId`: it, its answers and its own earlier versions give way to
 * the new question, whose earlier versions they become.
 */
export function replaceQuestion(
  db: D1Database,
  { owner, chatId, oldId, newId }: { owner: ChatOwner; chatId: string; oldId: string; newId: string },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE chat_messages SET replaced_by = ?3
        WHERE chat_id = ?1 AND (id = ?2 OR replaced_by = ?2 OR reply_to = ?2) AND ${OWNED}`,
    )
    .bind(chatId, oldId, newId, owner.tenantId, owner.userId);
}

/**
 * An answer made again that said nothing (it failed before its first word): the latest of the
 * answers it would have replaced is the current one again.
 */
export async function restoreAnswers({
  db,
  owner,
  chatId,
  messageId,
  replyId,
}: {
  db: D1Database;
  owner: ChatOwner;
  chatId: string;
  messageId: string;
  replyId: string;
}): Promise<void> {
  const latest = await db
    .prepare(
      `SELECT id FROM chat_messages WHERE chat_id = ?1 AND role = 'assistant' AND reply_to = ?2 AND replaced_by = ?3
        ORDER BY seq DESC LIMIT 1`,
    )
    .bind(chatId, messageId, replyId)
    .first<{ id: string }>();
  if (!latest) return;
  await db.batch([
    db
      .prepare(`UPDATE chat_messages SET replaced_by = ?6 WHERE chat_id = ?1 AND replaced_by = ?3 AND reply_to = ?2 AND ${OWNED}`)
      .bind(chatId, messageId, replyId, owner.tenantId, owner.userId, latest.id),
    db
      .prepare(`UPDATE chat_messages SET replaced_by = NULL WHERE chat_id = ?1 AND id = ?2 AND ${OWNED}`)
      .bind(chatId, latest.id, replyId, owner.tenantId, owner.userId),
  ]);
}

const MAX_VERSIONS = 50;

/**
 * The earlier versions of a message of the owner's chat, oldest first (at most the latest 50): of
 * an answer, the answers made before it to the same question; of a question, the questions it was
 * edited from, each with its last answer. 404 for a message the chat does not hold.
 */
export async function versionsOf({
  db,
  owner,
  chatId,
  messageId,
}: {
  db: D1Database;
  owner: ChatOwner;
  chatId: string;
  messageId: string;
}): Promise<{ message_id: string; versions: MessageVersion[] }> {
  await getChat({ db, owner, chatId });
  const [self, earlier] = await db.batch<Record<string, unknown>>([
    db.prepare(`SELECT role FROM chat_messages WHERE chat_id = ?1 AND id = ?2`).bind(chatId, messageId),
    db
      .prepare(
        `SELECT id, role, parts, metadata, reply_to, created_at FROM chat_messages
          WHERE chat_id = ?1 AND replaced_by = ?2 ORDER BY seq`,
      )
      .bind(chatId, messageId),
  ]);
  const role = (self?.results[0] as { role: string } | undefined)?.role;
  if (!role) throw notFoundMessage(messageId);
  const rows = (earlier?.results ?? []) as unknown as (StoredRow & { reply_to: string | null; created_at: string })[];
  const replyOf = (row: StoredRow) => {
    const message = messageOf(row);
    return { id: message.id, parts: message.parts, metadata: (message.metadata ?? {}) as ChatMessageMetadata };
  };
  const versions: MessageVersion[] =
    role === "assistant"
      ? rows.filter((r) => r.role === "assistant").map((r) => ({ question: null, reply: replyOf(r), created_at: r.created_at }))
      : rows
          .filter((r) => r.role === "user")
          .map((q) => {
            const answer = rows.filter((r) => r.role === "assistant" && r.reply_to === q.id).at(-1);
            return {
              question: { id: q.id, text: textOf(messageOf(q).parts) },
              reply: answer ? replyOf(answer) : null,
              created_at: q.created_at,
            };
          });
  return { message_id: messageId, versions: versions.slice(-MAX_VERSIONS) };
}

function textOf(parts: { type: string; text?: string }[]): string {
  return parts
    .filter((p) => p.type === "text")
    .map((p) => p.text ?? "")
    .join("\n");
}

function notFoundMessage(messageId: string) {
  return new AppError("not_found", `No message '${messageId.slice(0, 100)}' in this chat.`);
}
