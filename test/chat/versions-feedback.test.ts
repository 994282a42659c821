import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { keys } from "../fixtures.ts";
import { call, callJson } from "../helpers.ts";
import { assembled, readChunks, textOf } from "./stream.ts";

type Stored = UIMessage & { metadata?: Record<string, unknown> };

const QUESTION = "锁边机断线怎么办";

/** Sends a message as `useChat` does (`extra`: a trigger, an edit's `replaces`), and reads the reply. */
async function ask(chatId: string, message: { id: string; text: string }, extra: Record<string, unknown> = {}, key = keys.staff) {
  const res = await call("/api/chat", {
    key,
    method: "POST",
    body: JSON.stringify({
      id: chatId,
      messages: [{ id: message.id, role: "user", parts: [{ type: "text", text: message.text }] }],
      trigger: "submit-message",
      ...extra,
    }),
  });
  if (res.status !== 200) return { res, reply: null };
  return { res, reply: await assembled(await readChunks(res)) };
}

async function history(chatId: string, count: number, key = keys.staff): Promise<Stored[]> {
  for (let i = 0; i < 50; i++) {
    const { status, body } = await callJson(`/api/chats/${chatId}`, { key });
    if (status === 200 && body.messages.length >= count && body.messages.at(-1).role === "assistant") return body.messages;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`chat ${chatId} never reached ${count} messages`);
}

const post = (path: string, body: unknown, key = keys.staff) =>
  callJson(path, { key, method: "POST", body: JSON.stringify(body) });

describe("regenerate and edit", () => {
  it("makes the last answer again, keeping the earlier one as its previous version", async () => {
    const chatId = `regen-${crypto.randomUUID()}`;
    const question = { id: crypto.randomUUID(), text: QUESTION };
    const first = await ask(chatId, question);
    await history(chatId, 2);
    const again = await ask(chatId, question, { trigger: "regenerate-message" });
    expect(again.res.status).toBe(200);
    expect(again.reply?.id).not.toBe(first.reply?.id);
    const messages = await history(chatId, 2);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(messages[1]?.id).toBe(again.reply?.id);
    expect(messages[1]?.metadata).toMatchObject({ previous: 1 });
    const { body } = await callJson(`/api/chats/${chatId}/messages/${again.reply?.id}/versions`, { key: keys.staff });
    expect(body.versions).toHaveLength(1);
    expect(body.versions[0].reply.id).toBe(first.reply?.id);
    expect(body.versions[0].reply.parts).toEqual(first.reply?.parts);
    // Sent again without the trigger, it is the same turn, replayed, not made a third time.
    const replayed = await ask(chatId, question);
    expect(replayed.reply?.id).toBe(again.reply?.id);
  });

  it("refuses to make again any answer but the last", async () => {
    const chatId = `regen-old-${crypto.randomUUID()}`;
    const first = { id: crypto.randomUUID(), text: QUESTION };
    await ask(chatId, first);
    await history(chatId, 2);
    await ask(chatId, { id: crypto.randomUUID(), text: "缝纫机跳针" });
    await history(chatId, 4);
    const { res } = await ask(chatId, first, { trigger: "regenerate-message" });
    expect(res.status).toBe(409);
    expect((await history(chatId, 4)).length).toBe(4);
  });

  it("edits the last question and asks again, the earlier question and answer reachable as its previous version", async () => {
    const chatId = `edit-${crypto.randomUUID()}`;
    const original = { id: crypto.randomUUID(), text: "缝纫机跳针" };
    const firstReply = (await ask(chatId, original)).reply;
    await history(chatId, 2);
    const edited = { id: crypto.randomUUID(), text: QUESTION };
    const { res, reply } = await ask(chatId, edited, { replaces: original.id });
    expect(res.status).toBe(200);
    const messages = await history(chatId, 2);
    expect(messages.map((m) => [m.role, m.id])).toEqual([
      ["user", edited.id],
      ["assistant", reply?.id],
    ]);
    expect(textOf(messages[0] as UIMessage)).toBe(QUESTION);
    expect(messages[0]?.metadata).toMatchObject({ previous: 1 });
    const { body } = await callJson(`/api/chats/${chatId}/messages/${edited.id}/versions`, { key: keys.staff });
    expect(body.versions).toEqual([
      expect.objectContaining({
        question: { id: original.id, text: "缝纫机跳针" },
        reply: expect.objectContaining({ id: firstReply?.id }),
      }),
    ]);
    // Only the last question can be edited.
    const stale = await ask(chatId, { id: crypto.randomUUID(), text: "再问" }, { replaces: original.id });
    expect(stale.res.status).toBe(409);
  });
});

describe("feedback on answers", () => {
  it("rates an answer 👍 or 👎 with a line, shows it with the history, and lets a boss review the 👎", async () => {
    const chatId = `rate-${crypto.randomUUID()}`;
    const question = { id: crypto.randomUUID(), text: QUESTION };
    const { reply } = await ask(chatId, question);
    await history(chatId, 2);
    const path = `/api/chats/${chatId}/messages/${reply?.id}/feedback`;
    const up = await post(path, { rating: "up" });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ rating: "up", comment: null });
    const down = await post(path, { rating: "down", comment: "答案说的是平缝机，不是锁边机" });
    expect(down.body).toMatchObject({ rating: "down", comment: "答案说的是平缝机，不是锁边机" });
    const messages = await history(chatId, 2);
    expect(messages[1]?.metadata).toMatchObject({ feedback: { rating: "down", comment: "答案说的是平缝机，不是锁边机" } });

    const review = await callJson("/api/feedback?rating=down&limit=50", { key: keys.boss });
    expect(review.status).toBe(200);
    const mine = review.body.feedback.find((f: { message_id: string }) => f.message_id === reply?.id);
    expect(mine).toMatchObject({
      rating: "down",
      comment: "答案说的是平缝机，不是锁边机",
      question: QUESTION,
      answer: textOf(reply as UIMessage),
      person: { id: "u-staff" },
      faq: null,
    });
    expect(mine.person.name).toMatch(/\S/);
    expect(Array.isArray(mine.sources)).toBe(true);
    // Staff do not review the workshop's ratings; another workshop's boss does not see these.
    expect((await callJson("/api/feedback", { key: keys.staff })).status).toBe(403);
    const other = await callJson("/api/feedback?rating=down&limit=100", { key: keys.otherBoss });
    expect(other.body.feedback.some((f: { message_id: string }) => f.message_id === reply?.id)).toBe(false);

    // An FAQ entry a boss adds from it is noted on it.
    const kb = await post("/api/knowledge-bases", { name: `常见问题-${chatId}`, type: "faq" }, keys.boss);
    const entry = await post(
      `/api/knowledge-bases/${kb.body.id}/faq`,
      { question: QUESTION, answer: "先检查线路和张力，再换针。" },
      keys.boss,
    );
    expect(entry.status).toBe(201);
    const noted = await post(`/api/feedback/${mine.id}/faq`, { kb_id: kb.body.id, entry_id: entry.body.id }, keys.boss);
    expect(noted.status).toBe(200);
    const again = await callJson("/api/feedback?rating=down&limit=50", { key: keys.boss });
    expect(again.body.feedback.find((f: { id: string }) => f.id === mine.id).faq).toEqual({
      kb_id: kb.body.id,
      entry_id: entry.body.id,
    });
    expect((await post(`/api/feedback/${mine.id}/faq`, { kb_id: kb.body.id, entry_id: "nope" }, keys.boss)).status).toBe(404);

    // Taking it back.
    expect((await callJson(path, { key: keys.staff, method: "DELETE" })).status).toBe(200);
    expect((await history(chatId, 2))[1]?.metadata?.feedback).toBeUndefined();
  });

  it("refuses a rating of a question, of another person's answer, or that is not up or down", async () => {
    const chatId = `rate-bad-${crypto.randomUUID()}`;
    const question = { id: crypto.randomUUID(), text: QUESTION };
    const { reply } = await ask(chatId, question);
    await history(chatId, 2);
    expect((await post(`/api/chats/${chatId}/messages/${question.id}/feedback`, { rating: "down" })).status).toBe(404);
    expect((await post(`/api/chats/${chatId}/messages/${reply?.id}/feedback`, { rating: "down" }, keys.boss)).status).toBe(404);
    expect((await post(`/api/chats/${chatId}/messages/${reply?.id}/feedback`, { rating: "meh" })).status).toBe(400);
    expect((await post(`/api/chats/${chatId}/messages/${reply?.id}/feedback`, { rating: "up", x: 1 })).status).toBe(400);
    expect((await post(`/api/chats/${chatId}/messages/__proto__/feedback`, { rating: "up" })).status).toBe(404);
  });
});
