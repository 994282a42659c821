import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { type ChatMessage, saveUserMessage } from "../../src/chat/history.ts";
import { dbOf, keys, logins } from "../fixtures.ts";
import { call } from "../helpers.ts";
import { storedChat } from "./chat-api.ts";
import { signIn } from "./sign-in.ts";
import { assembled, readChunks, textOf } from "./stream.ts";

// Issue 46: a user message id names one turn. Sent again (a retry, a reload after a crash), it is
// not stored again: its reply is replayed, or made once if the server stopped before making it.

const QUESTION = "李娟这个月做了多少件";

function send(chatId: string, id: string, text = QUESTION): Promise<Response> {
  return call("/api/chat", {
    method: "POST",
    key: keys.staff,
    body: JSON.stringify({ id: chatId, messages: [{ id, role: "user", parts: [{ type: "text", text }] }] }),
  });
}

async function replyOf(res: Response): Promise<{ id: string; text: string }> {
  expect(res.status).toBe(200);
  const message = await assembled(await readChunks(res));
  return { id: message.id, text: textOf(message) };
}

async function history(chatId: string, count: number): Promise<UIMessage[]> {
  const cookie = await signIn(logins.staff.username, logins.staff.password);
  return (await storedChat(cookie, chatId, count)).messages;
}

/** The chat's stored rows, roles and ids in order: what the history holds, whatever was answered. */
async function rows(chatId: string): Promise<{ id: string; role: string }[]> {
  const { results } = await dbOf("t-jinxiu")
    .prepare("SELECT id, role FROM chat_messages WHERE chat_id = ?1 ORDER BY seq")
    .bind(chatId)
    .all<{ id: string; role: string }>();
  return results;
}

describe("a user message id names one turn", () => {
  it("answers a message sent twice with the same reply, replayed rather than made again, and keeps one question and one reply", async () => {
    const chatId = `dup-${crypto.randomUUID()}`;
    const first = await replyOf(await send(chatId, "m1"));
    await history(chatId, 2);
    // 李娟 records 999 more pieces: a reply made again would count them, the stored one does not.
    await dbOf("t-jinxiu")
      .prepare(
        `INSERT INTO piece_records (id, tenant_id, employee_id, process_id, order_id, quantity, unit_price_cents, work_date)
       SELECT 'pr-turns', 't-jinxiu', 'e-jx-lijuan', id, 'o-jx-1', 999, unit_price_cents, date('now', '+8 hours')
         FROM processes WHERE tenant_id = 't-jinxiu' AND name = '上袖子'`,
      )
      .run();
    const again = await replyOf(await send(chatId, "m1"));
    expect(again).toEqual(first);
    const asked = await replyOf(await send(`fresh-${crypto.randomUUID()}`, "m1"));
    expect(asked.text).not.toBe(first.text);
    expect(first.text).toMatch(/\S/);
    const stored = await rows(chatId);
    expect(stored.map((r) => r.role)).toEqual(["user", "assistant"]);
    expect(stored[0]?.id).toBe("m1");
    expect(stored[1]?.id).toBe(first.id);
  });

  it("makes the reply once when the message is sent again after its reply was cut", async () => {
    const chatId = `cut-${crypto.randomUUID()}`;
    // The server stopped after storing the question, before the reply.
    const owner = { tenantId: "t-jinxiu", userId: "u-staff" };
    const question: ChatMessage = { id: "m1", role: "user", parts: [{ type: "text", text: QUESTION }] };
    await saveUserMessage({ db: dbOf("t-jinxiu"), owner, chatId, title: QUESTION, message: question });
    const made = await replyOf(await send(chatId, "m1"));
    expect(made.text).toMatch(/\S/);
    await history(chatId, 2);
    const again = await replyOf(await send(chatId, "m1"));
    expect(again).toEqual(made);
    expect((await rows(chatId)).map((r) => r.role)).toEqual(["user", "assistant"]);
  });

  it("keeps one turn when the same message arrives twice at once", async () => {
    const chatId = `race-${crypto.randomUUID()}`;
    const [a, b] = await Promise.all([send(chatId, "m1"), send(chatId, "m1")]);
    await Promise.all([replyOf(a), replyOf(b)]);
    await history(chatId, 2);
    // Both streams end before their replies are stored (under waitUntil): give the later one time to try.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await rows(chatId)).map((r) => r.role)).toEqual(["user", "assistant"]);
  });

  it("keeps different ids different turns, and refuses an id that names a reply", async () => {
    const chatId = `two-${crypto.randomUUID()}`;
    const first = await replyOf(await send(chatId, "m1"));
    await history(chatId, 2);
    await replyOf(await send(chatId, "m2", "我这个月的工资是多少"));
    expect((await history(chatId, 4)).map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    const asReply = await send(chatId, first.id);
    expect(asReply.status).toBe(409);
    // The earlier question, sent again after the conversation went on, is told again, and adds nothing.
    expect(await replyOf(await send(chatId, "m1"))).toEqual(first);
    expect(await rows(chatId)).toHaveLength(4);
  });
});
