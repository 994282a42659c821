import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { UIMessage, UIMessageChunk } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { chatResponse } from "../../src/chat/agent.ts";
import { replyIdOf, saveUserMessage } from "../../src/chat/history.ts";
import { pacedModel } from "../../src/chat/paced-model.ts";
import { streamOf } from "../../src/chat/stream-run.ts";
import { configFor } from "../../src/config.ts";
import type { UserContext } from "../../src/user-context.ts";
import { dbOf, keys, testServices } from "../fixtures.ts";
import { call } from "../helpers.ts";
import { finish, step, text } from "./scripted-model.ts";
import { assembled, readChunks, textOf } from "./stream.ts";

const BOSS: UserContext = { userId: "u-boss", tenantId: "t-jinxiu", role: "boss" };
const WORDS = Array.from({ length: 24 }, (_, i) => `第${i + 1}句。`);
const PACE_MS = 25;

/** A scripted model that says `WORDS`, one part every `PACE_MS` (the slow stand-in), noting when it is aborted. */
function slowModel(): { model: LanguageModelV4; abortedAt: () => number | null } {
  let abortedAt: number | null = null;
  const mock = new MockLanguageModelV4({ doStream: [step(...text("t1", WORDS), finish("stop"))] });
  const paced = pacedModel(mock, PACE_MS);
  const model: LanguageModelV4 = {
    ...paced,
    doStream(options) {
      options.abortSignal?.addEventListener("abort", () => {
        abortedAt = Date.now();
      });
      return paced.doStream(options);
    },
  };
  return { model, abortedAt: () => abortedAt };
}

/** Starts a slow turn in `chatId` as the boss's browser would; its response is returned unread. */
async function startTurn(chatId: string, model: LanguageModelV4, messageId: string = crypto.randomUUID()) {
  const pending: Promise<unknown>[] = [];
  const res = await chatResponse({
    config: configFor(env),
    services: testServices(),
    directory: { db: env.DB },
    waitUntil: (p) => pending.push(p),
    user: BOSS,
    requestId: "resume-test",
    chatId,
    message: { id: messageId, text: "说二十四句" },
    model: () => model,
  });
  return { res, done: () => Promise.all(pending), messageId };
}

const follow = (chatId: string, lastEventId?: string) =>
  call(`/api/chats/${chatId}/stream`, {
    key: keys.boss,
    headers: lastEventId === undefined ? {} : { "Last-Event-ID": lastEventId },
  });

async function stored(chatId: string): Promise<(UIMessage & { metadata?: Record<string, unknown> })[]> {
  const res = await call(`/api/chats/${chatId}`, { key: keys.boss });
  return (await res.json<{ messages: (UIMessage & { metadata?: Record<string, unknown> })[] }>()).messages;
}

/** The SSE events of a response, read raw up to `count` data events: their ids and chunks. */
async function firstEvents(res: Response, count: number): Promise<{ id: number; chunk: UIMessageChunk }[]> {
  const reader = (res.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
  const events: { id: number; chunk: UIMessageChunk }[] = [];
  let buffer = "";
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end = buffer.indexOf("\n\n");
    while (end >= 0 && events.length < count) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const id = /^id: (\d+)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (id !== undefined && data !== undefined && data !== "[DONE]") events.push({ id: Number(id), chunk: JSON.parse(data) });
      end = buffer.indexOf("\n\n");
    }
  }
  await reader.cancel();
  return events;
}

describe("a reply that survives a reload or a dropped connection", () => {
  it("answers 204 when no reply is running, and to a chat that is not the caller's", async () => {
    expect((await follow(`none-${crypto.randomUUID()}`)).status).toBe(204);
    const chatId = `done-${crypto.randomUUID()}`;
    const { res, done } = await startTurn(chatId, slowModel().model);
    await readChunks(res);
    await done();
    // The reply is in the history: a reader arriving now has nothing to resume.
    expect((await follow(chatId)).status).toBe(204);
    expect((await call(`/api/chats/${chatId}/stream`, { key: keys.otherBoss })).status).toBe(204);
    expect((await follow(chatId, "abc")).status).toBe(400);
  });

  it("replays a running reply from its start and follows it live, and the stored reply equals what was streamed", async () => {
    const chatId = `reload-${crypto.randomUUID()}`;
    const { res, done } = await startTurn(chatId, slowModel().model);
    // The first browser goes away mid-reply (a reload): it read a few events and dropped.
    const seen = await firstEvents(res, 4);
    expect(seen.map((e) => e.id)).toEqual([0, 1, 2, 3]);
    const resumed = await follow(chatId);
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    const chunks = await readChunks(resumed);
    expect(chunks.filter((c) => c.type === "start")).toHaveLength(1);
    expect(chunks.at(-1)?.type).toBe("finish");
    const message = await assembled(chunks);
    expect(textOf(message)).toBe(WORDS.join(""));
    await done();
    const history = await stored(chatId);
    expect(history.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(history[1]?.id).toBe(message.id);
    expect(history[1]?.parts).toEqual(message.parts);
  });

  it("goes on from Last-Event-ID with nothing lost or doubled", async () => {
    const chatId = `drop-${crypto.randomUUID()}`;
    const { res, done } = await startTurn(chatId, slowModel().model);
    const before = await firstEvents(res, 6);
    const last = before.at(-1)?.id as number;
    const after = await readChunks(await follow(chatId, String(last)));
    const whole = [...before.map((e) => e.chunk), ...after];
    expect(whole.filter((c) => c.type === "start")).toHaveLength(1);
    expect(whole.filter((c) => c.type === "finish")).toHaveLength(1);
    expect(textOf(await assembled(whole))).toBe(WORDS.join(""));
    await done();
  });

  it("refuses a second question while a reply runs with 409, and follows the same message sent again", async () => {
    const chatId = `busy-${crypto.randomUUID()}`;
    const { res, done, messageId } = await startTurn(chatId, slowModel().model);
    await firstEvents(res, 2);
    const refused = await startTurn(chatId, slowModel().model).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "conflict", details: { reason: "reply_running" } });
    const again = await startTurn(chatId, slowModel().model, messageId);
    expect(textOf(await assembled(await readChunks(again.res)))).toBe(WORDS.join(""));
    await done();
    expect((await stored(chatId)).map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("stops the model within 500 ms of POST /stop, keeps the partial reply and marks it stopped", async () => {
    const chatId = `stop-${crypto.randomUUID()}`;
    const slow = slowModel();
    const { res, done } = await startTurn(chatId, slow.model);
    await firstEvents(res, 5);
    const asked = Date.now();
    const stop = await call(`/api/chats/${chatId}/stop`, { key: keys.boss, method: "POST" });
    expect(stop.status).toBe(200);
    expect(await stop.json()).toMatchObject({ chat_id: chatId, stopped: true });
    const abortedAt = slow.abortedAt();
    expect(abortedAt).not.toBeNull();
    expect((abortedAt as number) - asked).toBeLessThan(500);
    await done();
    // Answered once the reply is stored: the history read next holds it, partial and marked.
    const history = await stored(chatId);
    const reply = history[1] as UIMessage & { metadata?: Record<string, unknown> };
    expect(reply.metadata).toMatchObject({ ended: "stopped" });
    const said = textOf(reply);
    expect(said.length).toBeGreaterThan(0);
    expect(said.length).toBeLessThan(WORDS.join("").length);
    expect(await (await call(`/api/chats/${chatId}/stop`, { key: keys.boss, method: "POST" })).json()).toMatchObject({
      stopped: false,
    });
    expect((await call(`/api/chats/${chatId}/stop`, { key: keys.otherBoss, method: "POST" })).status).toBe(404);
  });

  it("stores a reply whose Worker went away mid-reply as it stood, marked interrupted, and lets the chat go on", async () => {
    // A Worker stored the question, began the reply, said a few words, and went away (a crash,
    // `npm run dev` stopped mid-reply): nothing will end its run.
    const { chatId, stub, replyId } = await replyBegunAndLeft("gone", ["第一句。", "第二句。"]);
    // Its beat is long past.
    await runInDurableObject(stub, (_, state) => {
      state.storage.sql.exec("UPDATE run SET beat_at = 0");
    });
    const resumed = await readChunks(await follow(chatId));
    const message = await assembled(resumed);
    expect(message.metadata).toMatchObject({ ended: "interrupted" });
    expect(textOf(message)).toBe("第一句。第二句。");
    const history = await stored(chatId);
    expect(history.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(history[1]?.metadata).toMatchObject({ ended: "interrupted" });
    expect(history[1]?.id).toBe(replyId);
    expect(history[1]?.parts).toEqual(message.parts);
    // The next question is answered as usual.
    const next = await startTurn(chatId, slowModel().model);
    await readChunks(next.res);
    await next.done();
    expect((await stored(chatId)).map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });

  it("stores the reply as it stood when its Worker goes away while a reader follows it, without another request", async () => {
    const { chatId, stub } = await replyBegunAndLeft("gone-follow", ["第一句。"]);
    // A reload follows the reply while its Worker is alive; then the Worker goes silent for good,
    // and the log's alarm takes it for gone while the reader waits for the next chunk.
    const reading = follow(chatId).then(readChunks);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await runInDurableObject(stub, (_, state) => {
      state.storage.sql.exec("UPDATE run SET beat_at = 0");
    });
    await runDurableObjectAlarm(stub);
    const message = await assembled(await reading);
    expect(message.metadata).toMatchObject({ ended: "interrupted" });
    expect(textOf(message)).toBe("第一句。");
    // The reader saw the end, and the history holds what it saw.
    const history = await stored(chatId);
    expect(history.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(history[1]?.metadata).toMatchObject({ ended: "interrupted" });
    expect(history[1]?.parts).toEqual(message.parts);
  });
});

/**
 * A chat whose question a Worker stored and whose reply it began, saying `deltas`, in the chat's
 * stream log; what comes next (the Worker going away, a reader) is the test's.
 */
async function replyBegunAndLeft(prefix: string, deltas: string[]) {
  const chatId = `${prefix}-${crypto.randomUUID()}`;
  const stub = streamOf({ objects: env.CHAT_STREAM, tenantId: "t-jinxiu" }, chatId);
  const owner = { tenantId: "t-jinxiu", userId: "u-boss" };
  const question = { id: crypto.randomUUID(), role: "user" as const, parts: [{ type: "text" as const, text: "说几句" }] };
  await saveUserMessage({ db: dbOf("t-jinxiu"), owner, chatId, title: "说几句", message: question });
  const replyId = await replyIdOf(question.id);
  const runId = crypto.randomUUID();
  expect(await stub.begin({ owner, runId, turn: { messageId: question.id, replyId } })).toEqual({ kind: "started" });
  const said: UIMessageChunk[] = [
    { type: "start", messageId: replyId },
    { type: "text-start", id: "t1" },
    ...deltas.map((delta): UIMessageChunk => ({ type: "text-delta", id: "t1", delta })),
  ];
  await stub.append(
    runId,
    0,
    said.map((c) => JSON.stringify(c)),
  );
  return { chatId, stub, replyId };
}
