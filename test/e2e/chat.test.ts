import { spawnSync } from "node:child_process";
import { parseJsonEventStream, readUIMessageStream, type UIMessage, type UIMessageChunk, uiMessageChunkSchema } from "ai";
import { describe, expect, inject, it } from "vitest";

const baseUrl = inject("baseUrl");
const stateDir = inject("stateDir");

async function signIn(username: string, password: string): Promise<{ cookie: string; setCookie: string }> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: baseUrl },
    body: JSON.stringify({ username, password }),
  });
  expect(res.status).toBe(200);
  const setCookie = res.headers.get("Set-Cookie") ?? "";
  return { cookie: setCookie.split(";")[0] as string, setCookie };
}

function send(cookie: string, chatId: string, text: string, signal?: AbortSignal): Promise<Response> {
  return fetch(`${baseUrl}/api/chat`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: cookie, Origin: baseUrl },
    body: JSON.stringify({ id: chatId, message: { id: crypto.randomUUID(), role: "user", parts: [{ type: "text", text }] } }),
    ...(signal ? { signal } : {}),
  });
}

async function reply(res: Response): Promise<UIMessage> {
  const chunks = parseJsonEventStream({
    stream: res.body as ReadableStream<Uint8Array>,
    schema: uiMessageChunkSchema,
  }).pipeThrough(
    new TransformStream<{ success: boolean; value?: UIMessageChunk }, UIMessageChunk>({
      transform(result, controller) {
        if (result.success && result.value) controller.enqueue(result.value);
      },
    }),
  );
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream: chunks })) last = message;
  if (!last) throw new Error("empty stream");
  return last;
}

async function stored(cookie: string, chatId: string, count: number): Promise<{ messages: UIMessage[] }> {
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${baseUrl}/api/chats/${chatId}`, { headers: { Cookie: cookie } });
    if (res.status === 200) {
      const chat = (await res.json()) as { messages: UIMessage[] };
      if (chat.messages.length >= count) return chat;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`chat ${chatId} never reached ${count} messages`);
}

const text = (message: UIMessage) => message.parts.map((p) => (p.type === "text" ? p.text : "")).join("");

describe("the web chat on npm run dev", () => {
  it("signs the demo boss in over plain http on localhost, without a Secure cookie", async () => {
    const { setCookie } = await signIn("boss", "boss123");
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).not.toMatch(/Secure/);
  });

  it("answers a question about the shipped manual with a citation, and keeps the conversation", async () => {
    const { cookie } = await signIn("boss", "boss123");
    const res = await send(cookie, "e2e-manual", "怎么新建订单？");
    expect(res.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    const message = await reply(res);
    expect(text(message)).toMatch(/来源：\n- \[1\] /);
    const chat = await stored(cookie, "e2e-manual", 2);
    expect(text(chat.messages[1] as UIMessage)).toBe(text(message));
  });

  it("finishes and stores a reply whose reader went away after the first bytes", async () => {
    const { cookie } = await signIn("staff", "staff123");
    const abort = new AbortController();
    const res = await send(cookie, "e2e-gone", "衣服起皱怎么办", abort.signal);
    const reader = res.body?.getReader();
    await reader?.read();
    abort.abort();
    const chat = await stored(cookie, "e2e-gone", 2);
    expect(chat.messages[1]?.parts.some((p) => p.type === "tool-initiate_session")).toBe(true);
  });

  it("keeps sessions and chats when the demo data is loaded again", async () => {
    const { cookie } = await signIn("staff2", "staff123");
    await reply(await send(cookie, "e2e-reseed", "你好"));
    await stored(cookie, "e2e-reseed", 2);
    const seed = spawnSync(process.execPath, ["scripts/seed.ts"], {
      env: { ...process.env, WEFT_STATE_DIR: stateDir },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(seed.status, seed.stderr).toBe(0);
    expect((await fetch(`${baseUrl}/api/auth/me`, { headers: { Cookie: cookie } })).status).toBe(200);
    expect((await stored(cookie, "e2e-reseed", 2)).messages).toHaveLength(2);
  });
});
