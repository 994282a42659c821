import type { UIMessage } from "ai";
import { badRequest, notFound } from "../errors.ts";
import { sha256Hex } from "../sha256.ts";
import { withCurrentCards } from "./card-data.ts";

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

/** A chat's messages in order, as the AI SDK's UI messages (confirm cards in today's shape). */
export async function loadMessages({ db, chatId }: { db: D1Database; chatId: string }): Promise<UIMessage[]> {
  const { results } = await db
    .prepare(`SELECT id, role, parts FROM chat_messages WHERE chat_id = ?1 ORDER BY seq`)
    .bind(chatId)
    .all<{ id: string; role: "user" | "assistant"; parts: string }>();
  return results.map((row) => ({ id: row.id, role: row.role, parts: withCurrentCards(JSON.parse(row.parts)) }));
}

function insertMessage(db: D1Database, owner: ChatOwner, chatId: string, message: UIMessage): D1PreparedStatement {
  // The owner check is in the statement itself, so a message never lands in another person's chat;
  // an id the chat holds already (a message sent twice at once, a reply made twice) is kept once.
  return db
    .prepare(
      `INSERT INTO chat_messages (chat_id, id, seq, role, parts)
       SELECT ?1, ?2, COALESCE((SELECT MAX(seq) FROM chat_messages WHERE chat_id = ?1), 0) + 1, ?3, ?4
        WHERE EXISTS (SELECT 1 FROM chats WHERE id = ?1 AND tenant_id = ?5 AND user_id = ?6)
       ON CONFLICT (chat_id, id) DO NOTHING`,
    )
    .bind(chatId, message.id, message.role, JSON.stringify(message.parts), owner.tenantId, owner.userId);
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
}: {
  db: D1Database;
  owner: ChatOwner;
  chatId: string;
  title: string;
  message: UIMessage;
}): Promise<void> {
  await db.batch([
    db
      .prepare(`INSERT INTO chats (id, tenant_id, user_id, title) VALUES (?1, ?2, ?3, ?4) ON CONFLICT (id) DO NOTHING`)
      .bind(chatId, owner.tenantId, owner.userId, title),
    insertMessage(db, owner, chatId, message),
    db
      .prepare(`UPDATE chats SET updated_at = ${NOW} WHERE id = ?1 AND tenant_id = ?2 AND user_id = ?3`)
      .bind(chatId, owner.tenantId, owner.userId),
  ]);
}

/**
 * Stores the assistant's reply of a turn, with all its parts (text, tool calls, confirm cards). A
 * turn's reply has an id of its own question's making (`replyIdOf`), so a reply made twice (the
 * same message sent twice at once) is stored once.
 */
export async function saveAssistantMessage({
  db,
  owner,
  chatId,
  message,
}: {
  db: D1Database;
  owner: ChatOwner;
  chatId: string;
  message: UIMessage;
}): Promise<void> {
  await db.batch([
    insertMessage(db, owner, chatId, message),
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
      .prepare(
        `DELETE FROM chat_messages WHERE chat_id = ?1
           AND EXISTS (SELECT 1 FROM chats WHERE id = ?1 AND tenant_id = ?2 AND user_id = ?3)`,
      )
      .bind(chatId, owner.tenantId, owner.userId),
    db.prepare(`DELETE FROM chats WHERE id = ?1 AND tenant_id = ?2 AND user_id = ?3`).bind(chatId, owner.tenantId, owner.userId),
  ]);
}

/** The id of the reply to the user's message `messageId`: one per question, so a turn is stored once whoever answers it. */
export async function replyIdOf(messageId: string): Promise<string> {
  return `reply-${(await sha256Hex(messageId)).slice(0, 32)}`;
}
