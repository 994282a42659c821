import { describe, expect, it } from "vitest";
import { keys } from "../fixtures.ts";
import { call } from "../helpers.ts";
import { chatBody, sendChat, storedChat } from "./chat-api.ts";
import { browserCall, signIn } from "./sign-in.ts";
import { assembled, readChunks, textOf } from "./stream.ts";

const MANUAL = `# 锦绣制衣系统使用手册

## 新建订单

新建订单时，先在订单页点“新建”，选择客户，再填写款式和数量。交期必须晚于今天。

## 计件录入

员工每天下班前录入当天的计件数量，组长核对后提交。`;

async function knowledgeBase(name: string): Promise<string> {
  const kb = await call("/api/knowledge-bases", { method: "POST", key: keys.boss, body: JSON.stringify({ name }) });
  const { id } = await kb.json<{ id: string }>();
  const doc = await call(`/api/knowledge-bases/${id}/documents`, {
    method: "POST",
    key: keys.boss,
    body: JSON.stringify({ filename: "manual.md", content: MANUAL }),
  });
  if (doc.status >= 300) throw new Error(await doc.text());
  return id;
}

describe("POST /api/chat with the offline model", () => {
  it("announces the offline model", async () => {
    const cookie = await signIn("boss", "boss123");
    const res = await browserCall("/api/chat/model", cookie);
    expect(await res.json()).toMatchObject({ id: "offline", offline: true, label: expect.stringContaining("offline") });
  });

  it("streams the AI SDK UI message stream: an extractive answer citing title and heading", async () => {
    const kb = await knowledgeBase("手册");
    const cookie = await signIn("boss", "boss123");
    const res = await sendChat(cookie, "chat-rag", "怎么新建订单？", { kbIds: [kb] });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    expect(res.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    const chunks = await readChunks(res);
    const types = chunks.map((c) => c.type);
    expect(types[0]).toBe("start");
    expect(types).toContain("text-start");
    expect(types.filter((t) => t === "text-delta").length).toBeGreaterThan(1);
    expect(types).toContain("text-end");
    expect(types.at(-1)).toBe("finish");
    const message = await assembled(chunks);
    expect(textOf(message)).toContain("选择客户，再填写款式和数量");
    expect(textOf(message)).toContain("[1] 锦绣制衣系统使用手册 › 新建订单");
  });

  it("answers an English question with the closest passage of the Chinese guide, saying so", async () => {
    const kb = await knowledgeBase("英文提问用的手册");
    const cookie = await signIn("boss", "boss123");
    const message = await assembled(
      await readChunks(await sendChat(cookie, "chat-en", "How do I create an order?", { kbIds: [kb] })),
    );
    expect(textOf(message)).toContain("The workshop's guide is written in Chinese");
    expect(textOf(message)).toContain("[1] 锦绣制衣系统使用手册 › 新建订单");
  });

  it("sends the sources an answer may cite, each openable as its passage by the citation the answer names", async () => {
    const kb = await knowledgeBase("手册-来源");
    const cookie = await signIn("staff", "staff123");
    const chunks = await readChunks(await sendChat(cookie, "chat-sources", "怎么新建订单？", { kbIds: [kb] }));
    // Right after the message starts, before any text.
    expect(chunks.map((c) => c.type).slice(0, 2)).toEqual(["start", "data-sources"]);
    const message = await assembled(chunks);
    const part = message.parts.find((p) => p.type === "data-sources") as {
      data: { sources: { citation: string; kb_id: string; chunk_id: string }[] };
    };
    const cited = part.data.sources.find((s) => textOf(message).includes(`[1] ${s.citation}`));
    expect(cited).toMatchObject({ citation: "锦绣制衣系统使用手册 › 新建订单", kb_id: kb });
    const res = await browserCall(`/api/knowledge-bases/${kb}/passages/${cited?.chunk_id}`, cookie);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      kb_name: "手册-来源",
      document_title: "锦绣制衣系统使用手册",
      heading_path: "锦绣制衣系统使用手册 > 新建订单",
      content: expect.stringContaining("选择客户，再填写款式和数量"),
    });
    // Stored with the reply, so a reloaded chat can open them too.
    const stored = await storedChat(cookie, "chat-sources", 2);
    expect(stored.messages[1]?.parts.find((p) => p.type === "data-sources")).toEqual(part);
  });

  it("sends a search tool's results as the sources of the answer it quotes", async () => {
    const kb = await knowledgeBase("手册-搜索");
    const cookie = await signIn("boss", "boss123");
    const message = await assembled(
      await readChunks(await sendChat(cookie, "chat-search-sources", "搜索 计件录入", { kbIds: [kb] })),
    );
    const search = message.parts.find((p) => p.type === "tool-knowledge_search") as { input: unknown } | undefined;
    // The ask to search is not part of what is searched for.
    expect(search?.input).toEqual({ query: "计件录入" });
    const lists = message.parts.filter((p) => p.type === "data-sources") as unknown as {
      data: { sources: { citation: string; kb_id: string }[] };
    }[];
    const fromSearch = lists.at(-1)?.data.sources ?? [];
    expect(fromSearch.some((s) => s.citation === "锦绣制衣系统使用手册 › 计件录入" && s.kb_id === kb)).toBe(true);
    expect(textOf(message)).toContain("[1] 锦绣制衣系统使用手册 › 计件录入");
  });

  it("runs a consultation tool and shows its step, with options the UI can offer as buttons", async () => {
    const cookie = await signIn("boss", "boss123");
    const chunks = await readChunks(await sendChat(cookie, "chat-consult", "衣服起皱怎么办"));
    const types = chunks.map((c) => c.type);
    expect(types).toEqual(expect.arrayContaining(["tool-input-start", "tool-input-available", "tool-output-available"]));
    const message = await assembled(chunks);
    const tool = message.parts.find((p) => p.type === "tool-initiate_session") as {
      state: string;
      input: unknown;
      output: { session_id: string; options: { id: string; description: string }[] };
    };
    expect(tool.state).toBe("output-available");
    expect(tool.input).toEqual({ user_query: "衣服起皱怎么办" });
    expect(tool.output.options.length).toBeGreaterThan(0);
    // The step and its options are in the tool part, which the UI shows; the text does not repeat them.
    expect(textOf(message)).toBe("请在上面选一项，也可以回复选项的序号。");

    // The UI sends the chosen option's description; the offline model navigates with its id.
    const choice = tool.output.options[0] as { id: string; description: string };
    const next = await assembled(await readChunks(await sendChat(cookie, "chat-consult", choice.description)));
    const step = next.parts.find((p) => p.type === "tool-navigate_session") as { input: unknown; state: string };
    expect(step.input).toEqual({ session_id: tool.output.session_id, selected_option_id: choice.id });
    expect(step.state).toBe("output-available");
  });

  it("sums up a consultation with each choice once after going back and choosing again", async () => {
    const cookie = await signIn("boss", "boss123");
    type Step = { session_id: string; response: string; options: { id: string; description: string }[]; is_complete: boolean };
    // Each turn sends what the UI sends for a button: the option's description.
    const turn = async (text: string): Promise<{ step: Step; input: unknown }> => {
      const message = await assembled(await readChunks(await sendChat(cookie, "chat-consult-back", text)));
      const part = message.parts.find((p) => p.type.endsWith("_session")) as { input: unknown; output: Step };
      return { step: part.output, input: part.input };
    };
    const pick = (step: Step, words: string) => {
      const option = step.options.find((o) => o.description.startsWith(words));
      if (!option) throw new Error(`no option ${words} in ${JSON.stringify(step.options)}`);
      return option.description;
    };
    let { step } = await turn("最近次品特别多怎么办");
    ({ step } = await turn(pick(step, "缝线起皱")));
    ({ step } = await turn(pick(step, "返回上一步")));
    ({ step } = await turn(pick(step, "断线")));
    const end = await turn(pick(step, "结束咨询"));
    expect(end.input).toEqual({ session_id: step.session_id, selected_option_id: "end" });
    expect(end.step.is_complete).toBe(true);
    expect(end.step.response).toBe("咨询已结束。\n\n您的选择：\n- 断线");
  });

  it("says plainly what it can do when it has no answer", async () => {
    const cookie = await signIn("staff", "staff123");
    const message = await assembled(await readChunks(await sendChat(cookie, "chat-help", "今天天气怎么样")));
    expect(textOf(message)).toContain("我是离线模型");
    // A staff member is shown what they may ask: their own work, not a colleague's pay.
    expect(textOf(message)).toContain("我这个月的工资");
  });

  it("greets a greeting in one line with what the person's role may ask", async () => {
    const cookie = await signIn("staff", "staff123");
    const message = await assembled(await readChunks(await sendChat(cookie, "chat-hello", "你好")));
    expect(textOf(message)).toMatch(/^你好！还可以这样问我：\n\n- “我这个月做了多少件”/);
  });

  it("accepts an API key as well as the cookie", async () => {
    const res = await call("/api/chat", { method: "POST", key: keys.staff, body: chatBody("chat-key", "hello") });
    expect(res.status).toBe(200);
    const message = await assembled(await readChunks(res));
    expect(textOf(message)).toMatch(/^Hello! You could ask me:/);
  });

  it("refuses bad requests with a clear 4xx before streaming", async () => {
    const cookie = await signIn("boss", "boss123");
    const post = (body: string, headers: Record<string, string> = {}) =>
      browserCall("/api/chat", cookie, { method: "POST", body, headers });
    expect((await post("{")).status).toBe(400);
    expect((await post(JSON.stringify({ id: "x" }))).status).toBe(400);
    expect((await post(JSON.stringify({ id: "../etc", message: { id: "m", role: "user", parts: [] } }))).status).toBe(400);
    const assistantLast = JSON.stringify({
      id: "c1",
      messages: [{ id: "m", role: "assistant", parts: [{ type: "text", text: "hi" }] }],
    });
    expect((await post(assistantLast)).status).toBe(400);
    const empty = JSON.stringify({ id: "c1", message: { id: "m", role: "user", parts: [{ type: "text", text: "  " }] } });
    expect((await post(empty)).status).toBe(400);
    expect((await post(chatBody("c1", "hi", { kbIds: ["kb-of-someone-else"] }))).status).toBe(404);
    expect((await post(chatBody("c1", "x".repeat(8001)))).status).toBe(400);
    const unknown = await post(chatBody("c1", "hi", { zzz: 1 }));
    expect(unknown.status).toBe(400);
    expect((await unknown.json<{ error: { message: string } }>()).error.message).toContain("zzz");
    expect((await call("/api/chat", { method: "POST", body: chatBody("c1", "hi") })).status).toBe(401);
    const foreign = await browserCall("/api/chat", cookie, {
      method: "POST",
      body: chatBody("c1", "hi"),
      headers: { Origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    // Nothing was stored by any of them.
    expect((await browserCall("/api/chats/c1", cookie)).status).toBe(404);
  });

  it("keeps a lone surrogate in a message as one U+FFFD, in the stored chat and its title", async () => {
    const cookie = await signIn("boss", "boss123");
    // Sent as JSON's escape for half of a surrogate pair, as from a client that cut a string mid-character.
    const body = chatBody("lone-surrogate", "计件\uD800登记");
    expect(body).toContain("\\ud800");
    const res = await browserCall("/api/chat", cookie, { method: "POST", body });
    expect(res.status).toBe(200);
    await res.text();
    const chat = await storedChat(cookie, "lone-surrogate", 2);
    expect(chat.title).toBe("计件\uFFFD登记");
    expect(chat.messages[0]?.parts).toEqual([{ type: "text", text: "计件\uFFFD登记" }]);
  });

  it("never lets one user write into or read another's chat", async () => {
    const boss = await signIn("boss", "boss123");
    await readChunks(await sendChat(boss, "chat-private", "我的私人问题"));
    await storedChat(boss, "chat-private", 2);
    const staff = await signIn("staff", "staff123");
    expect((await sendChat(staff, "chat-private", "让我看看")).status).toBe(404);
    expect((await browserCall("/api/chats/chat-private", staff)).status).toBe(404);
    const other = await signIn("otherboss", "boss123");
    expect((await browserCall("/api/chats/chat-private", other)).status).toBe(404);
    const chat = await storedChat(boss, "chat-private", 2);
    expect(chat.messages).toHaveLength(2);
  });
});
