import type { UIMessage } from "ai";
import { badRequest, notFound } from "../errors.ts";
import { sha256Hex } from "../sha256.ts";
import type { ChatMessageMetadata } from "../shapes.ts";
import { withCurrentCards } from "./card-data.ts";

/** A stored chat message: the AI SDK's, with Weft's metadata (how it ended, its earlier versions, its rating). */
export type ChatMessage = UIMessage<ChatMessageMetadata>;

/** A chat as lists show it. */
export interface ChatSummary {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
}

/** Who owns a chat: every query below is scoped by both. */
export interface ChatOwner {
  tenantId: string;
  userId: string;
}

const NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

/** The chat if it is the owner's; `null` if nobody has it yet; 404 if it is someone else's. */
export async function findChat({
  db,
  owner,
  chatId,
}: {
  db: D1Database;
  owner: ChatOwner;
  chatId: string;
}): Promise<ChatSummary | null> {
  const row = await db
    .prepare(`SELECT id, title, created_at, updated_at, tenant_id, user_id FROM chats WHERE id = ?1`)
    .bind(chatId)
    .first<ChatSummary & { tenant_id: string; user_id: string }>();
  if (!row) return null;
  // Another person's chat is answered exactly like a missing one, so ids reveal nothing.
  if (row.tenant_id !== owner.tenantId || row.user_id !== owner.userId) throw notFound(`No chat '${chatId}'.`);
  return { id: row.id, title: row.title, created_at: row.created_at, updated_at: row.updated_at };
}

/** The owner's chat, or 404. */
export async function getChat({ db, owner, chatId }: { db: D1Database; owner: ChatOwner; chatId: string }): Promise<ChatSummary> {
  const chat = await findChat({ db, owner, chatId });
  if (!chat) throw notFound(`No chat '${chatId}'.`);
  return chat;
}

/**
 * A chat's messages in order, as the AI SDK's UI messages (confirm cards in today's shape): the
 * current version of each, with its metadata and, on an answer, the person's rating of it.
 */
export async function loadMessages({ db, chatId }: { db: D1Database; chatId: string }): Promise<ChatMessage[]> {
  const [messages, ratings] = await db.batch<Record<string, unknown>>([
    db
      .prepare(`SELECT id, role, parts, metadata FROM chat_messages WHERE chat_id = ?1 AND replaced_by IS NULL ORDER BY seq`)
      .bind(chatId),
    db.prepare(`SELECT message_id, rating, comment FROM chat_feedback WHERE chat_id = ?1`).bind(chatId),
  ]);
  const rated = new Map(
    ((ratings?.results ?? []) as { message_id: string; rating: "up" | "down"; comment: string | null }[]).map((r) => [
      r.message_id,
      { rating: r.rating, comment: r.comment },
    ]),
  );
  return ((messages?.results ?? []) as unknown as StoredRow[]).map((row) => {
    const feedback = rated.get(row.id);
    return messageOf(row, feedback ? { feedback } : {});
  });
}

/** A message row as stored. */
export interface StoredRow {
  id: string;
  role: "user" | "assistant";
  parts: string;
  metadata: string | null;
}

/** A stored row as the AI SDK's message, its metadata with `extra` added; a message without any has none. */
export function messageOf(row: StoredRow, extra: ChatMessageMetadata = {}): ChatMessage {
  const metadata: ChatMessageMetadata = { ...(row.metadata ? (JSON.parse(row.metadata) as ChatMessageMetadata) : {}), ...extra };
  const message: ChatMessage = { id: row.id, role: row.role, parts: withCurrentCards(JSON.parse(row.parts)) };
  return Object.keys(metadata).length > 0 ? { ...message, metadata } : message;
}

/** What a message row is stored with besides its parts. */
interface RowExtras {
  /** On an answer: the question it answers (its versions are the answers to the same question). */
  replyTo?: string | undefined;
}

function insertMessage(
  db: D1Database,
  owner: ChatOwner,
  chatId: string,
  message: ChatMessage,
  extras: RowExtras = {},
): D1PreparedStatement {
  // The owner check is in the statement itself, so a message never lands in another person's chat;
  // an id the chat holds already (a message sent twice at once, a reply made twice) is kept once.
  // The rating is not stored with the message: it is read beside it.
  const { feedback: _, ...metadata } = message.metadata ?? {};
  return db
    .prepare(
      `INSERT INTO chat_messages (chat_id, id, seq, role, parts, metadata, reply_to)
       SELECT ?1, ?2, COALESCE((SELECT MAX(seq) FROM chat_messages WHERE chat_id = ?1), 0) + 1, ?3, ?4, ?7, ?8
        WHERE EXISTS (SELECT 1 FROM chats WHERE id = ?1 AND tenant_id = ?5 AND user_id = ?6)
       ON CONFLICT (chat_id, id) DO NOTHING`,
    )
    .bind(
      chatId,
      message.id,
      message.role,
      JSON.stringify(message.parts),
      owner.tenantId,
      owner.userId,
      Object.keys(metadata).length > 0 ? JSON.stringify(metadata) : null,
      extras.replyTo ?? null,
    );
}

/**
 * Stores a user's message, creating the chat (titled from it) when it is new, in one batch. The
 * message is stored before the model answers, so it is kept whatever happens to the reply. A
 * message whose id the chat already holds is not stored again.
 */
export async function saveUserMessage({
  db,
  owner,
  chatId,
  title,
  message,
  also = [],
}: {
  db: D1Database;
  owner: ChatOwner;
  chatId: string;
  title: string;
  message: ChatMessage;
  /** Statements that belong to the same write (an edited question hiding the one it replaces). */
  also?: D1PreparedStatement[];
}): Promise<void> {
  await db.batch([
    db
      .prepare(`INSERT INTO chats (id, tenant_id, user_id, title) VALUES (?1, ?2, ?3, ?4) ON CONFLICT (id) DO NOTHING`)
      .bind(chatId, owner.tenantId, owner.userId, title),
    insertMessage(db, owner, chatId, message),
    ...also,
    db
      .prepare(`UPDATE chats SET updated_at = ${NOW} WHERE id = ?1 AND tenant_id = ?2 AND user_id = ?3`)
      .bind(chatId, owner.tenantId, owner.userId),
  ]);
}

/**
 * Stores the assistant's reply of a turn, with all its parts (text, tool calls, confirm cards) and
 * its metadata, as the answer to `replyTo`. A turn's reply has an id of its own question's making
 * (`replyIdOf`), so a reply made twice (the same message sent twice at once) is stored once.
 */
export async function saveAssistantMessage({
  db,
  owner,
  chatId,
  message,
  replyTo,
}: {
  db: D1Database;
  owner: ChatOwner;
  chatId: string;
  message: ChatMessage;
  replyTo: string;
}): Promise<void> {
  await db.batch([
    insertMessage(db, owner, chatId, message, { replyTo }),
    db
      .prepare(`UPDATE chats SET updated_at = ${NOW} WHERE id = ?1 AND tenant_id = ?2 AND user_id = ?3`)
      .bind(chatId, owner.tenantId, owner.userId),
  ]);
}

const MAX_TITLE_WORDS = 8;

function encodeCursor(chat: ChatSummary): string {
  return btoa(JSON.stringify([chat.updated_at, chat.id]));
}

function decodeCursor(cursor: string): [string, string] | null {
  try {
    const value: unknown = JSON.parse(atob(cursor));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === "string")) return value as [string, string];
  } catch {
    // A cursor that is not ours is a client mistake, answered below.
  }
  return null;
}

/**
 * The owner's chats, most recently active first, `limit` at a time; `q` keeps those whose title
 * contains every word of it. `next_cursor` continues the list, `null` at its end.
 */
export async function listChats({
  db,
  owner,
  limit,
  cursor,
  q,
}: {
  db: D1Database;
  owner: ChatOwner;
  limit: number;
  cursor?: string | undefined;
  q?: string | undefined;
}): Promise<{ chats: ChatSummary[]; next_cursor: string | null }> {
  const where = ["tenant_id = ?1", "user_id = ?2"];
  const binds: unknown[] = [owner.tenantId, owner.userId];
  if (cursor) {
    const after = decodeCursor(cursor);
    if (!after) throw badRequest("This cursor is not one this list gave out; start again without it.");
    binds.push(after[0], after[1]);
    where.push(`(updated_at < ?${binds.length - 1} OR (updated_at = ?${binds.length - 1} AND id < ?${binds.length}))`);
  }
  const words = (q ?? "").split(/\s+/).filter(Boolean).slice(0, MAX_TITLE_WORDS);
  for (const word of words) {
    binds.push(`%${word.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`);
    where.push(`title LIKE ?${binds.length} ESCAPE '\\'`);
  }
  binds.push(limit + 1);
  const { results } = await db
    .prepare(
      `SELECT id, title, created_at, updated_at FROM chats WHERE ${where.join(" AND ")}
        ORDER BY updated_at DESC, id DESC LIMIT ?${binds.length}`,
    )
    .bind(...binds)
    .all<ChatSummary>();
  const page = results.slice(0, limit);
  const last = page[page.length - 1];
  return { chats: page, next_cursor: results.length > limit && last ? encodeCursor(last) : null };
}

/** Renames the owner's chat. */
export async function renameChat({
  db,
  owner,
  chatId,
  title,
}: {
  db: D1Database;
  owner: ChatOwner;
  chatId: string;
  title: string;
}): Promise<ChatSummary> {
  const row = await db
    .prepare(
      `UPDATE chats SET title = ?4, updated_at = ${NOW} WHERE id = ?1 AND tenant_id = ?2 AND user_id = ?3
       RETURNING id, title, created_at, updated_at`,
    )
    .bind(chatId, owner.tenantId, owner.userId, title)
    .first<ChatSummary>();
  if (!row) throw notFound(`No chat '${chatId}'.`);
  return row;
}

/** Deletes the owner's chat and its messages together, in one batch. */
export async function deleteChat({ db, owner, chatId }: { db: D1Database; owner: ChatOwner; chatId: string }): Promise<void> {
  await getChat({ db, owner, chatId });
  await db.batch([
    db
      .prepare(`DELETE FROM chat_feedback WHERE chat_id = ?1 AND tenant_id = ?2 AND user_id = ?3`)
      .bind(chatId, owner.tenantId, owner.userId),
    db
      .prepare(
        `DELETE FROM chat_messages WHERE chat_id = ?1
           AND EXISTS (SELECT 1 FROM chats WHERE id = ?1 AND tenant_id = ?2 AND user_id = ?3)`,
      )
      .bind(chatId, owner.tenantId, owner.userId),
    db.prepare(`DELETE FROM chats WHERE id = ?1 AND tenant_id = ?2 AND user_id = ?3`).bind(chatId, owner.tenantId, owner.userId),
  ]);
}

/**
 * The id of the reply to the user's message `messageId`: one per question and version (the first
 * answer, then each made again), so a turn is stored once whoever answers it.
 */
export async function replyIdOf(messageId: string, version = 1): Promise<string> {
  return `reply-${(await sha256Hex(version === 1 ? messageId : `${messageId}\u0000${version}`)).slice(0, 32)}`;
}
