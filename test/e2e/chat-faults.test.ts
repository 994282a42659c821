// Issue 42's faults, for real: `npm run dev` killed (SIGKILL of its process group) mid-reply and
// started again on the same state; two tabs of one person on one chat in Debian's Chromium, one
// asking while the other's reply runs; a phone tab hidden mid-reply, its connection dropped, and
// shown again. Against this file's own `npm run dev` with a slow model stand-in (WEFT_CHAT_PACE_MS),
// so a reply lasts long enough to interrupt.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseJsonEventStream, type UIMessage, type UIMessageChunk, uiMessageChunkSchema } from "ai";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, startDevServer } from "../../scripts/dev-server.ts";
import { assembled, readChunks, textOf } from "../chat/stream.ts";
import { ARTIFACTS, type Browser, launchBrowser, signInByKeyboard } from "./browser.ts";
import { answers, askAndWaitForWords, QUESTION, questions, waitForEnd } from "./chat-page.ts";

const stateDir = mkdtempSync(join(tmpdir(), "weft-chat-faults-"));
const SLOW = { WEFT_CHAT_PACE_MS: "150" };
let server: DevServer;
const browsers: Browser[] = [];

beforeAll(async () => {
  server = await startDevServer({ stateDir, env: SLOW, timeoutMs: 280_000 });
}, 300_000);

afterAll(async () => {
  for (const browser of browsers) await browser.close();
  await server?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

async function browser(label: string): Promise<Browser> {
  const launched = await launchBrowser({ width: 1280, height: 800 }, label);
  browsers.push(launched);
  return launched;
}

const headers = { Authorization: "Bearer dev-boss-key", "Content-Type": "application/json" };

function ask(chatId: string, text: string, id: string = crypto.randomUUID()): Promise<Response> {
  return fetch(`${server.baseUrl}/api/chat`, {
    method: "POST",
    headers,
    body: JSON.stringify({ id: chatId, message: { id, role: "user", parts: [{ type: "text", text }] } }),
  });
}

/** Reads a reply's chunks as they come, with the `ai` package's parser, until the stream ends or breaks. */
function follow(res: Response) {
  const chunks: UIMessageChunk[] = [];
  const ended = (async () => {
    try {
      for await (const result of parseJsonEventStream({
        stream: res.body as ReadableStream<Uint8Array>,
        schema: uiMessageChunkSchema,
      })) {
        if (!result.success) throw result.error;
        chunks.push(result.value);
      }
      return "ended" as const;
    } catch {
      return "cut" as const;
    }
  })();
  const words = () => chunks.filter((c) => c.type === "text-delta").length;
  return { chunks, ended, words };
}

async function history(chatId: string): Promise<UIMessage[]> {
  const res = await fetch(`${server.baseUrl}/api/chats/${chatId}`, { headers, signal: AbortSignal.timeout(30_000) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { messages: UIMessage[] }).messages;
}

/** `GET /stream`, which must answer (204 or a replay) rather than hang. */
function resume(chatId: string): Promise<Response> {
  return fetch(`${server.baseUrl}/api/chats/${chatId}/stream`, { headers, signal: AbortSignal.timeout(30_000) });
}

const flat = (text: string) => text.replace(/\s+/g, "");

/** Each answer as shown, without what is shown under it (its buttons and badges). */
const shownAnswers = (page: Page) =>
  answers(page).evaluateAll((els) =>
    els.map((el) => {
      const copy = el.cloneNode(true) as HTMLElement;
      for (const extra of copy.querySelectorAll(".answer-actions, .sr-only, .tool")) extra.remove();
      return (copy.textContent ?? "").replace(/\s+/g, "");
    }),
  );

const chatIdOf = (page: Page) => /#chat=(.+)$/.exec(page.url())?.[1] ?? "";

/** The page hidden or shown, as a phone switching apps or a tab switched away from makes it. */
async function setVisibility(page: Page, state: "hidden" | "visible") {
  await page.evaluate((visibility) => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => visibility });
    Object.defineProperty(document, "hidden", { configurable: true, get: () => visibility === "hidden" });
    document.dispatchEvent(new Event("visibilitychange"));
  }, state);
}

/** Letters and digits only: Streamdown renders Markdown, so the shown text is the stored one without its marks. */
const words = (text: string) => text.replace(/[^\p{L}\p{N}]/gu, "");

/** Every stored answer is shown once in `page`, in order, and nothing more; the answers as shown. */
async function showsHistoryOnce(page: Page, chatId: string): Promise<string[]> {
  const stored = await history(chatId);
  const storedAnswers = stored.filter((m) => m.role === "assistant").map((m) => words(textOf(m)));
  await expect.poll(() => answers(page).count(), { timeout: 30_000 }).toBe(storedAnswers.length);
  expect(await questions(page).count()).toBe(stored.length - storedAnswers.length);
  const shown = (await shownAnswers(page)).map(words);
  for (const [index, text] of storedAnswers.entries()) {
    expect(shown[index]?.length).toBeGreaterThan(text.length * 0.9);
    expect(shown[index]?.length).toBeLessThan(text.length * 1.1);
  }
  return shown;
}

/** The boss signed in, a chat with one question answered, and a second tab open on that chat. */
async function twoTabsOnOneChat(label: string) {
  const { page, context, shot } = await browser(label);
  await signInByKeyboard(page, server.baseUrl, "boss", "boss123");
  await askAndWaitForWords(page, QUESTION);
  await waitForEnd(page);
  const chatId = chatIdOf(page);
  const other = await context.newPage();
  await other.goto(page.url());
  await expect.poll(() => answers(other).count(), { timeout: 30_000 }).toBe(1);
  return { page, other, chatId, shot };
}

describe("two tabs of one person on one chat, in Chromium", () => {
  it("shows the reply in both once; a question from the other tab meanwhile is refused in words and kept for later", {
    timeout: 240_000,
  }, async () => {
    const { page, other, chatId, shot } = await twoTabsOnOneChat("tabs");

    // The first tab asks; the second, open on the same chat and idle, asks too while that reply runs.
    await askAndWaitForWords(page, "锁边机断线怎么办");
    const box = other.getByRole("combobox", { name: "消息" });
    await box.fill("张三这个月做了多少件");
    await other.keyboard.press("Enter");
    const refused = other.locator(".reply-running[role=alert]");
    await refused.waitFor({ timeout: 30_000 });
    expect(await refused.textContent()).toContain("还有一个回答正在生成");
    await other.screenshot({ path: join(ARTIFACTS, "tabs-2-refused.png") });
    // Nothing of it was stored or is shown as asked; its words are back in the box.
    expect(await box.inputValue()).toBe("张三这个月做了多少件");
    expect(await other.locator("article.from-user", { hasText: "张三这个月做了多少件" }).count()).toBe(0);
    // The second tab follows the first tab's reply instead, and both show it once.
    await expect.poll(() => questions(other).count(), { timeout: 30_000 }).toBe(2);
    await waitForEnd(page);
    await waitForEnd(other);
    expect((await history(chatId)).map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(await showsHistoryOnce(other, chatId)).toEqual(await showsHistoryOnce(page, chatId));
    await shot("tabs-1-first");

    // Once it is done, the second tab's question goes; the first tab sees it when shown again.
    await other.locator("button.send").click();
    await expect.poll(() => answers(other).count(), { timeout: 30_000 }).toBe(3);
    await waitForEnd(other);
    expect(await other.locator(".reply-running").count()).toBe(0);
    await setVisibility(page, "hidden");
    await setVisibility(page, "visible");
    await expect.poll(() => answers(page).count(), { timeout: 30_000 }).toBe(3);
    await waitForEnd(page);
    expect((await history(chatId)).map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user", "assistant"]);
    expect(await showsHistoryOnce(other, chatId)).toEqual(await showsHistoryOnce(page, chatId));
    await other.close();
  });

  it("a tab shown again mid-reply follows another tab's reply from its start, once", { timeout: 120_000 }, async () => {
    const { page, other, chatId } = await twoTabsOnOneChat("tabs-follow");
    await setVisibility(other, "hidden");
    await askAndWaitForWords(page, "锁边机断线怎么办");
    await setVisibility(other, "visible");
    // Shown while the reply runs: the question, then the reply as it streams, with its stop button.
    await expect.poll(() => questions(other).count(), { timeout: 30_000 }).toBe(2);
    await other.locator("button.stop").waitFor({ timeout: 30_000 });
    await waitForEnd(page);
    await waitForEnd(other);
    expect(await showsHistoryOnce(other, chatId)).toEqual(await showsHistoryOnce(page, chatId));
    await other.close();
  });
});

describe("a phone tab hidden mid-reply, its connection dropped, and shown again, in Chromium", () => {
  it("completes the reply once when shown again", { timeout: 120_000 }, async () => {
    const { page, context, shot } = await browser("hidden");
    // Chromium's offline emulation sometimes only holds a response already streaming rather than
    // breaking it; a phone's dropped connection breaks it. So the page's reading of a reply is cut
    // here as a drop cuts it, with the TypeError Chromium's fetch raises when a connection is lost.
    await context.addInitScript(() => {
      const original = window.fetch;
      const cuts: (() => void)[] = [];
      (window as unknown as { cutReplies: () => void }).cutReplies = () => {
        for (const cut of cuts.splice(0)) cut();
      };
      window.fetch = async (input, init) => {
        const res = await original(input, init);
        const url = new URL(input instanceof Request ? input.url : String(input), location.href);
        if (url.pathname !== "/api/chat" || !res.body) return res;
        const reader = res.body.getReader();
        const cut = new Promise<never>((_, reject) => cuts.push(() => reject(new TypeError("network error"))));
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            try {
              const next = await Promise.race([reader.read(), cut]);
              if (next.done) controller.close();
              else controller.enqueue(next.value);
            } catch (error) {
              controller.error(error);
              void reader.cancel().catch(() => undefined);
            }
          },
        });
        return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
      };
    });
    await signInByKeyboard(page, server.baseUrl, "boss", "boss123");
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    const network = (offline: boolean) =>
      cdp.send("Network.emulateNetworkConditions", { offline, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await askAndWaitForWords(page, QUESTION);
    const chatId = chatIdOf(page);
    await setVisibility(page, "hidden");
    await network(true);
    await page.evaluate(() => (window as unknown as { cutReplies: () => void }).cutReplies());
    await page.locator("button.send").waitFor({ timeout: 30_000 });
    const cutAt = (await shownAnswers(page))[0]?.length ?? 0;
    // Back on the network while still in the background: a hidden tab waits until it is shown.
    await network(false);
    await page.waitForTimeout(1000);
    expect(await page.locator("button.stop").count()).toBe(0);
    expect((await shownAnswers(page))[0]?.length ?? 0).toBe(cutAt);
    await setVisibility(page, "visible");
    await waitForEnd(page);
    await expect.poll(async () => (await history(chatId)).map((m) => m.role), { timeout: 30_000 }).toEqual(["user", "assistant"]);
    await expect.poll(async () => (await shownAnswers(page))[0] ?? "", { timeout: 30_000 }).not.toBe("");
    await showsHistoryOnce(page, chatId);
    expect((await history(chatId))[1]?.metadata ?? {}).not.toHaveProperty("ended");
    await shot("hidden-1-shown-again");
    await cdp.detach();
  });
});

describe("npm run dev killed mid-reply and started again on the same state", () => {
  it("keeps the question and the reply as it stood, marked interrupted, once; resumes answer; the chat goes on", {
    timeout: 600_000,
  }, async () => {
    // Two replies running when the server dies: one is resumed after the restart, the other's chat
    // simply gets its next question.
    const resumed = `fault-${crypto.randomUUID()}`;
    const asked = `fault-${crypto.randomUUID()}`;
    const firstId = crypto.randomUUID();
    const a = follow(await ask(resumed, QUESTION, firstId));
    const b = follow(await ask(asked, QUESTION));
    await expect.poll(() => Math.min(a.words(), b.words()), { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    await server.kill();
    expect(await a.ended).toBe("cut");
    expect(await b.ended).toBe("cut");
    // Killed mid-reply: neither reply had finished.
    expect(a.chunks.some((c) => c.type === "finish")).toBe(false);
    expect(b.chunks.some((c) => c.type === "finish")).toBe(false);
    const seenBeforeKill = flat(textOf(await assembled(a.chunks)));

    server = await startDevServer({ stateDir, env: SLOW, timeoutMs: 280_000 });
    expect(server.startOutput).not.toMatch(/failed|error|exception|constraint/i);

    // The question survived the crash; the reply is not there twice.
    const before = await history(resumed);
    expect(before[0]).toMatchObject({ id: firstId, role: "user" });
    expect(before.filter((m) => m.role === "user")).toHaveLength(1);
    expect(before.filter((m) => m.role === "assistant").length).toBeLessThanOrEqual(1);

    // A reload asks for the running reply: it answers with the reply as it stood, marked interrupted.
    const replay = await resume(resumed);
    expect(replay.status).toBe(200);
    const replayed = await assembled(await readChunks(replay));
    expect(replayed.metadata).toMatchObject({ ended: "interrupted" });
    const stood = flat(textOf(replayed));
    expect(stood.length).toBeGreaterThan(0);
    // What was logged before the kill, no more and nothing twice: one is the start of the other.
    expect(seenBeforeKill.startsWith(stood) || stood.startsWith(seenBeforeKill)).toBe(true);
    // Nothing is running any more.
    expect((await resume(resumed)).status).toBe(204);

    const after = await history(resumed);
    expect(after.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(after[1]?.metadata).toMatchObject({ ended: "interrupted" });
    expect(flat(textOf(after[1] as UIMessage))).toBe(stood);

    // The browser resending its question after the crash gets that reply again, not a second one.
    const resent = await assembled(await readChunks(await ask(resumed, QUESTION, firstId)));
    expect(flat(textOf(resent))).toBe(stood);
    expect((await history(resumed)).map((m) => m.id)).toEqual(after.map((m) => m.id));

    // A new question in that chat is answered, in full.
    const next = await readChunks(await ask(resumed, "锁边机断线怎么办"));
    expect(next.some((c) => c.type === "finish")).toBe(true);
    const goneOn = await history(resumed);
    expect(goneOn.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(goneOn[3]?.metadata ?? {}).not.toHaveProperty("ended");
    expect(new Set(goneOn.map((m) => m.id)).size).toBe(4);

    // The other chat: its next question, the first request after the restart, stores the cut reply first.
    const nextB = await readChunks(await ask(asked, "锁边机断线怎么办"));
    expect(nextB.some((c) => c.type === "finish")).toBe(true);
    const chatB = await history(asked);
    expect(chatB.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(chatB[1]?.metadata).toMatchObject({ ended: "interrupted" });
    expect(flat(textOf(chatB[1] as UIMessage)).length).toBeGreaterThan(0);
    expect((await resume(asked)).status).toBe(204);

    // And the person who reopens the chat in the browser sees one question, one cut answer saying so.
    const { page, shot } = await browser("faults");
    await signInByKeyboard(page, server.baseUrl, "boss", "boss123");
    await page.goto(`${server.baseUrl}/#chat=${resumed}`);
    await page.reload();
    await expect.poll(() => answers(page).count(), { timeout: 30_000 }).toBe(2);
    expect(await questions(page).count()).toBe(2);
    // The badge comes with the answer's actions, a chunk of its own.
    await expect.poll(() => page.locator("[data-ended=interrupted]").count(), { timeout: 10_000 }).toBe(1);
    expect(await page.locator("[data-ended]").count()).toBe(1);
    await shot("faults-1-after-restart");
  });
});
