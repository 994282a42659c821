// The browser UI against `npm run dev`, in Debian's Chromium: sign-in, a streamed answer with a
// citation, the @ knowledge-base picker (keyboard and IME), a confirm card, the record in a
// follow-up, and the conversation after a reload; at desktop and at phone width.
import { parseJsonEventStream, type UIMessageChunk, uiMessageChunkSchema } from "ai";
import type { Page, Request } from "playwright-core";
import { afterEach, describe, expect, inject, it } from "vitest";
import { closedPortUrl, type Started, startAwkwardServer, startOAuthServer } from "../../scripts/mcp-test-servers.ts";
import { type Browser, desktopAndPhone } from "./browser.ts";

const baseUrl = inject("baseUrl");

const QUESTION = "首件检验怎么做？";
/** A citation names the document it quotes: a numbered reference or a source line. */
const CITATION = /\[\d+\]|来源|引用|《[^》]+》/;
const KB_NAME = "车间系统使用手册";
const PREPARE = (qty: number) => `给张三记今天上领子 ${qty} 件`;
const FOLLOW_UP = "张三今天做了多少件";
/** 裁剪 is a process of both demo styles: the card must ask which, and cannot be confirmed. */
const AMBIGUOUS = "给张三记今天裁剪 5 件";
const CONSULTATION = "裤腰的地方老是跳针";

const messageBox = (page: Page) => page.getByRole("combobox", { name: "消息" });
const lastAnswer = (page: Page) => page.locator("article.from-assistant").last();

const answers = (page: Page) => page.locator("article.from-assistant");

/** Waits for a new answer (more than `before`) to finish (the Send button is back) and returns its text. */
async function replyAfter(page: Page, before: number): Promise<string> {
  await expect.poll(() => answers(page).count(), { timeout: 30_000 }).toBeGreaterThan(before);
  await page.locator("button.send").waitFor({ timeout: 30_000 });
  return (await lastAnswer(page).textContent()) ?? "";
}

/** Types a message with the keyboard and sends it with Enter: the /api/chat request, and the reply's text once it ends. */
async function ask(page: Page, text: string): Promise<{ request: Request; reply: () => Promise<string> }> {
  const before = await answers(page).count();
  await messageBox(page).focus();
  await page.keyboard.type(text);
  const request = page.waitForRequest((r) => r.url().endsWith("/api/chat") && r.method() === "POST");
  await page.keyboard.press("Enter");
  return { request: await request, reply: () => replyAfter(page, before) };
}

/** Signs in with the keyboard alone: the username field has the focus, Tab moves to the password, Enter submits. */
async function signIn(page: Page, shot: Browser["shot"], username = "boss", password = "boss123") {
  await page.goto(baseUrl);
  await page.getByRole("heading", { name: "登录 Weft" }).waitFor();
  expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("username");
  await shot("1-sign-in");
  await page.keyboard.type(username);
  await page.keyboard.press("Tab");
  await page.keyboard.type(password);
  await page.keyboard.press("Enter");
  await page.locator(".topbar").waitFor();
  if (username === "boss") await expect.poll(() => page.locator(".topbar .who").textContent()).toContain("王老板");
}

/** The UI message stream's chunks in an SSE body, read with the `ai` package's own parser. */
async function streamChunks(sse: string): Promise<UIMessageChunk[]> {
  const stream = new Response(sse).body as ReadableStream<Uint8Array>;
  const chunks: UIMessageChunk[] = [];
  for await (const result of parseJsonEventStream({ stream, schema: uiMessageChunkSchema })) {
    if (!result.success) throw result.error;
    chunks.push(result.value);
  }
  return chunks;
}

async function chatFlow(browser: Browser, width: number) {
  const { page, shot } = browser;
  await signIn(page, shot);
  await expect.poll(() => page.locator(".offline-notice").textContent()).toContain("离线模型");

  // A question, answered as a stream in the AI SDK's UI message protocol, with a citation.
  const responseArrived = page.waitForResponse((r) => r.url().endsWith("/api/chat"));
  const question = await ask(page, QUESTION);
  const response = await responseArrived;
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("text/event-stream");
  expect(response.headers()["x-vercel-ai-ui-message-stream"]).toBe("v1");
  expect(await question.reply()).toMatch(CITATION);
  const chunks = await streamChunks((await response.body()).toString("utf8"));
  expect(chunks.filter((c) => c.type === "text-delta").length).toBeGreaterThan(1);
  expect(chunks.at(-1)?.type).toBe("finish");
  await shot("2-answer");

  // @ picks a knowledge base with the keyboard; the chosen one is a removable tag sent as kbIds.
  await messageBox(page).focus();
  await page.keyboard.type("@");
  const options = page.getByRole("option");
  await expect.poll(() => options.count()).toBeGreaterThan(1);
  await page.keyboard.press("ArrowDown");
  await expect.poll(() => options.nth(1).getAttribute("aria-selected")).toBe("true");
  await page.keyboard.press("ArrowUp");
  await expect.poll(() => options.nth(0).getAttribute("aria-selected")).toBe("true");
  await page.keyboard.press("Escape");
  await expect.poll(() => page.getByRole("listbox").count()).toBe(0);
  await page.keyboard.press("Backspace");
  await page.keyboard.type(`@${KB_NAME.slice(0, 4)}`);
  await expect.poll(() => options.first().textContent()).toContain(KB_NAME);
  await shot("3-picker");
  // Typing straight after the pick goes where the mention was, not in front of what is typed.
  await page.keyboard.press("Enter");
  await page.keyboard.type("给张");
  const tag = page.locator(".kb-tag");
  await expect.poll(() => tag.textContent()).toContain(KB_NAME);
  expect(await messageBox(page).inputValue()).toBe("给张");
  await page.keyboard.press("Backspace");
  await page.keyboard.press("Backspace");
  expect(await messageBox(page).inputValue()).toBe("");
  const kbId = await tag.getAttribute("data-kb-id");

  // A prepare: the confirm card comes with Confirm and Cancel; the request carried the chosen base.
  const quantity = 700 + (width % 97);
  const prepare = await ask(page, PREPARE(quantity));
  const sent = JSON.parse(prepare.request.postData() ?? "{}");
  expect(sent).toMatchObject({ kbIds: [kbId], message: { role: "user", parts: [{ type: "text", text: PREPARE(quantity) }] } });
  expect(sent.messages).toBeUndefined();
  const card = page.locator(".confirm-card").last();
  await card.waitFor({ timeout: 30_000 });
  expect(await card.getAttribute("data-status")).toBe("pending");
  await prepare.reply();
  await card.scrollIntoViewIfNeeded();
  await shot("4-confirm-card");
  const confirmed = page.waitForResponse((r) => /\/api\/actions\/[^/]+\/confirm$/.test(r.url()));
  await card.getByRole("button", { name: "确认" }).focus();
  await page.keyboard.press("Enter");
  expect((await confirmed).status()).toBe(200);
  await expect.poll(() => card.getAttribute("data-status")).toBe("confirmed");
  const confirmedId = await card.getAttribute("data-action-id");
  await shot("5-confirmed");

  // A prepare with a choice still open asks it in the person's words and offers no Confirm button.
  await (await ask(page, AMBIGUOUS)).reply();
  const open = page.locator(".confirm-card").last();
  expect(await open.getAttribute("data-status")).toBe("pending");
  await expect.poll(() => open.locator(".ambiguities").textContent()).toContain("是哪道工序？");
  expect(await open.locator(".ambiguities").textContent()).not.toContain("Several");
  expect(await open.getByRole("button", { name: "确认" }).count()).toBe(0);
  expect(await open.locator(".badge").textContent()).toBe("待补充");
  expect(await open.getByRole("button", { name: "取消" }).count()).toBe(1);
  expect(await lastAnswer(page).textContent()).toContain("还不能登记");
  await open.scrollIntoViewIfNeeded();
  await shot("5a-open-choice");

  // A consultation's options are buttons; a click sends the option's text as the next message.
  await (await ask(page, CONSULTATION)).reply();
  const option = lastAnswer(page).locator(".consultation .options button").first();
  const optionText = (await option.textContent()) ?? "";
  expect(optionText.length).toBeGreaterThan(0);
  const optionSent = page.waitForRequest((r) => r.url().endsWith("/api/chat") && r.method() === "POST");
  const beforeOption = await answers(page).count();
  await option.click();
  expect(JSON.parse((await optionSent).postData() ?? "{}").message.parts).toEqual([{ type: "text", text: optionText }]);
  await replyAfter(page, beforeOption);
  await expect.poll(() => page.locator("article.from-user .user-text").last().textContent()).toBe(optionText);
  await shot("5b-consultation");

  // The record shows in a follow-up query.
  expect(await (await ask(page, FOLLOW_UP)).reply()).toContain(String(quantity));
  await shot("6-follow-up");

  // A reload reopens the conversation from the URL, confirm card included, and lists it in the sidebar.
  await page.reload();
  await page.locator(".topbar").waitFor();
  await expect.poll(() => page.locator("article.from-user").first().textContent()).toContain(QUESTION);
  await expect
    .poll(() => page.locator(`.confirm-card[data-action-id="${confirmedId}"]`).getAttribute("data-status"))
    .toBe("confirmed");
  expect(await page.locator(".confirm-card").last().getAttribute("data-status")).toBe("pending");
  if (await page.locator(".menu-toggle").isVisible()) await page.locator(".menu-toggle").click();
  const listed = page.locator(".chat-list .chat-title");
  await expect.poll(() => listed.first().textContent()).toContain(QUESTION.slice(0, 4));
  await shot("7-after-reload");

  // Nothing is wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

describe("the web chat in Chromium", () => {
  const browsers = desktopAndPhone();

  // Every flow here (sign-in, settings, an OAuth sign-in's round trip, consultations, confirm cards,
  // the @ picker, English) runs under the page's Content-Security-Policy without breaking it.
  afterEach(() => {
    expect([...browsers.desktop.takeCspViolations(), ...browsers.phone.takeCspViolations()]).toEqual([]);
  });

  it("lets a boss add, test, disable and delete an MCP server in settings at phone width; staff's settings have no MCP servers", async () => {
    const { page, shot } = browsers.phone;
    const mcp: Started = await startAwkwardServer();
    try {
      await page.goto(baseUrl);
      await page.locator(".topbar, .sign-in").first().waitFor();
      if (await page.locator(".sign-in").isVisible()) await signIn(page, shot);
      await page.getByRole("button", { name: "设置" }).click();
      await page.getByRole("heading", { name: "外部 MCP 服务器" }).waitFor();

      const name = `e2e-${Date.now() % 1_000_000}`;
      const secret = `secret-${Date.now()}`;
      await page.getByLabel(/^名称/).fill(name);
      await page.getByLabel("地址（URL）").fill(`${mcp.url}/mcp`);
      await page.getByRole("button", { name: "添加请求头" }).click();
      await page.getByLabel("请求头名称").fill("X-Api-Key");
      await page.getByLabel("请求头的值").fill(secret);
      const added = page.waitForResponse((r) => r.url().endsWith("/api/mcp/servers") && r.request().method() === "POST");
      await page.getByRole("button", { name: "添加服务器" }).press("Enter");
      expect((await added).status()).toBe(201);
      const row = page.locator(`.mcp-server[data-server-name="${name}"]`);
      await row.waitFor();
      expect(await row.textContent()).toContain("X-Api-Key");
      expect(await page.locator("body").textContent()).not.toContain(secret);

      await row.getByRole("button", { name: "测试" }).click();
      await expect.poll(() => row.locator(".mcp-test").textContent(), { timeout: 30_000 }).toContain("连接成功：4 个工具");
      expect(await row.locator(".mcp-tools").textContent()).toContain("whoami");
      expect(await row.locator(".badge").textContent()).toBe("正常");
      await row.scrollIntoViewIfNeeded();
      await shot("10-settings");
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

      await row.getByRole("button", { name: "停用" }).click();
      await expect.poll(() => row.getAttribute("data-enabled")).toBe("false");
      await row.getByRole("button", { name: "删除" }).click();
      await row.getByText(`删除服务器 ${name}？`).waitFor();
      await row.getByRole("button", { name: "删除" }).click();
      await expect.poll(() => row.count()).toBe(0);

      // A server that is down: the test shows the error and the health says failing.
      const down = `${name}-down`;
      await page.getByLabel(/^名称/).fill(down);
      await page.getByLabel("地址（URL）").fill(await closedPortUrl());
      await page.getByRole("button", { name: "添加服务器" }).click();
      const downRow = page.locator(`.mcp-server[data-server-name="${down}"]`);
      await downRow.getByRole("button", { name: "测试" }).click();
      await expect.poll(() => downRow.locator(".mcp-test").textContent(), { timeout: 30_000 }).toContain("连接失败：");
      await expect.poll(() => downRow.locator(".badge").textContent()).toBe("出错");
      await shot("11-settings-failing");
      await downRow.getByRole("button", { name: "删除" }).click();
      await downRow.getByRole("button", { name: "删除" }).click();
      await expect.poll(() => downRow.count()).toBe(0);

      // Esc in the form keeps what was typed; Esc elsewhere goes back to the chat.
      await page.getByLabel(/^名称/).fill("typed");
      await page.keyboard.press("Escape");
      expect(await page.getByLabel(/^名称/).inputValue()).toBe("typed");
      await page.getByRole("heading", { name: "设置", level: 2 }).focus();
      await page.keyboard.press("Escape");
      await expect.poll(() => page.locator(".settings").count()).toBe(0);
      await page.getByRole("button", { name: "退出登录" }).click();
      await signIn(page, shot, "staff", "staff123");
      await expect.poll(() => page.locator(".topbar .who").textContent()).toContain("李娟");
      // Staff have settings too, holding only what is theirs (test/e2e/settings.test.ts goes through them).
      await page.getByRole("button", { name: "设置" }).click();
      await page.getByRole("heading", { name: "API 密钥" }).waitFor();
      expect(await page.getByRole("heading", { name: "外部 MCP 服务器" }).count()).toBe(0);
      await page.getByRole("button", { name: "退出登录" }).click();
      await page.locator(".sign-in").waitFor();
    } finally {
      await mcp.stop();
    }
  }, 120_000);

  it("lets a boss register a server that signs in with OAuth, sign in again when asked, and edit a server", async () => {
    const { page, shot } = browsers.phone;
    const provider = await startOAuthServer();
    const mcp = await startAwkwardServer();
    const openSettings = async () => {
      await page.goto(baseUrl);
      await page.locator(".topbar, .sign-in").first().waitFor();
      if (await page.locator(".sign-in").isVisible()) await signIn(page, shot);
      await page.getByRole("button", { name: "设置" }).click();
      await page.getByRole("heading", { name: "外部 MCP 服务器" }).waitFor();
    };
    const boss = (path: string, init: RequestInit = {}) =>
      fetch(`${baseUrl}${path}`, {
        ...init,
        headers: { Authorization: "Bearer dev-boss-key", "Content-Type": "application/json" },
      });
    const stamp = Date.now() % 1_000_000;
    try {
      await openSettings();
      const name = `oauth-${stamp}`;
      await page.getByLabel(/^名称/).fill(name);
      await page.getByLabel("地址（URL）").fill(provider.url);
      await page.getByLabel("用 OAuth 登录").check();
      expect(await page.getByRole("button", { name: "添加请求头" }).count()).toBe(0);
      // The browser goes to the provider, which approves at once, and comes back through Weft's
      // callback to the settings page, which says so (and takes the outcome out of the address).
      await page.getByRole("button", { name: "添加并登录" }).click();
      await expect.poll(() => page.locator(".sign-in-notice span").textContent(), { timeout: 30_000 }).toBe(`已登录 ${name}。`);
      await expect.poll(() => page.url()).toBe(`${baseUrl}/`);
      const row = page.locator(`.mcp-server[data-server-name="${name}"]`);
      await expect.poll(() => row.locator(".badge").textContent()).toBe("正常");
      expect(await row.textContent()).toContain("4 个工具");
      expect(await row.textContent()).toContain("OAuth 登录");
      await shot("12-settings-oauth");

      // The provider forgets every token: the next test finds the server needs signing in, and the
      // row's button starts the flow again.
      provider.signOutEveryone();
      await row.getByRole("button", { name: "测试" }).click();
      await expect.poll(() => row.locator(".badge").textContent(), { timeout: 30_000 }).toBe("需要登录");
      // The earlier success is no longer claimed.
      expect(await page.locator(".sign-in-notice").count()).toBe(0);
      await row.scrollIntoViewIfNeeded();
      await shot("13-settings-needs-sign-in");
      await row.getByRole("button", { name: "登录" }).click();
      await expect.poll(() => page.locator(".sign-in-notice span").textContent(), { timeout: 30_000 }).toBe(`已登录 ${name}。`);
      await expect.poll(() => row.locator(".badge").textContent()).toBe("正常");
      expect(await row.getByRole("button", { name: "登录" }).count()).toBe(0);
      expect(await page.locator("body").textContent()).not.toContain(provider.issued()[0]);
      await page.locator(".sign-in-notice").getByRole("button", { name: "关闭" }).click();
      expect(await page.locator(".sign-in-notice").count()).toBe(0);
      // A used or forged sign-in link lands on the same page, which says so in its own words.
      await page.goto(`${baseUrl}/api/mcp/oauth/callback?state=forged&code=x&error_description=call+us`);
      await expect
        .poll(() => page.locator(".sign-in-notice span").textContent(), { timeout: 30_000 })
        .toBe("这个登录链接已失效或已用过，请重新登录。");
      expect(await page.locator("body").textContent()).not.toContain("call us");

      // A sign-in link finished in a browser not signed in to Weft is refused without being spent:
      // the sign-in form and then the settings page ask to sign in as the workshop's boss, and then
      // the same link finishes it.
      const listed = (await (await boss("/api/mcp/servers")).json()) as { servers: { id: string; name: string }[] };
      const oauthId = listed.servers.find((s) => s.name === name)?.id;
      const started = await boss(`/api/mcp/servers/${oauthId}/sign-in`, { method: "POST" });
      const { authorization_url } = (await started.json()) as { authorization_url: string };
      const callback = (await fetch(authorization_url, { redirect: "manual" })).headers.get("Location") ?? "";
      await page.context().clearCookies();
      await page.goto(callback);
      await page.getByRole("heading", { name: "登录 Weft" }).waitFor();
      await expect
        .poll(() => page.locator(".sign-in .notice").textContent())
        .toBe("请以这个服务器所属工作坊的老板身份登录 Weft，再重新登录这个服务器。");
      expect(page.url()).toBe(`${baseUrl}/`);
      await page.keyboard.type("boss");
      await page.keyboard.press("Tab");
      await page.keyboard.type("boss123");
      await page.keyboard.press("Enter");
      await expect
        .poll(() => page.locator(".sign-in-notice span").textContent(), { timeout: 30_000 })
        .toBe("请以这个服务器所属工作坊的老板身份登录 Weft，再重新登录这个服务器。");
      await page.goto(callback);
      await expect.poll(() => page.locator(".sign-in-notice span").textContent(), { timeout: 30_000 }).toBe(`已登录 ${name}。`);

      // Editing a server with a key: the value is never shown; left blank it is kept, and a new
      // header and the /mcp flag are saved.
      const keyed = `keyed-${stamp}`;
      const secret = `secret-${Date.now()}`;
      const created = await boss("/api/mcp/servers", {
        method: "POST",
        body: JSON.stringify({ name: keyed, url: `${mcp.url}/mcp`, headers: { "X-Api-Key": secret } }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      await openSettings();
      const keyedRow = page.locator(`.mcp-server[data-server-name="${keyed}"]`);
      await keyedRow.getByRole("button", { name: "编辑" }).click();
      const form = keyedRow.getByRole("form", { name: `编辑 ${keyed}` });
      expect(await form.getByLabel("地址（URL）").inputValue()).toBe(`${mcp.url}/mcp`);
      expect(await form.getByLabel("请求头名称").inputValue()).toBe("X-Api-Key");
      expect(await form.getByLabel("请求头的值").inputValue()).toBe("");
      expect(await form.getByLabel("请求头的值").getAttribute("placeholder")).toBe("留空则不变");
      await form.getByRole("button", { name: "添加请求头" }).click();
      await form.getByLabel("请求头名称").nth(1).fill("X-Extra");
      await form.getByLabel("请求头的值").nth(1).fill("extra");
      await form.getByLabel("通过本站的 /mcp 提供它的工具").check();
      await keyedRow.scrollIntoViewIfNeeded();
      await shot("14-settings-edit");
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      const saved = page.waitForResponse((r) => r.url().endsWith(`/api/mcp/servers/${id}`) && r.request().method() === "PATCH");
      await form.getByRole("button", { name: "保存" }).click();
      expect((await saved).status()).toBe(200);
      await expect.poll(() => keyedRow.textContent()).toContain("X-Api-Key, X-Extra");
      expect(await keyedRow.getByRole("form").count()).toBe(0);
      await keyedRow.getByRole("button", { name: "测试" }).click();
      await expect.poll(() => keyedRow.locator(".mcp-test").textContent(), { timeout: 30_000 }).toContain("连接成功");
      const sent = mcp.seen.at(-1);
      expect(sent?.get("x-api-key")).toBe(secret);
      expect(sent?.get("x-extra")).toBe("extra");
      const stored = (await (await boss(`/api/mcp/servers/${id}`)).json()) as { expose_on_mcp: boolean };
      expect(stored.expose_on_mcp).toBe(true);
      expect(await page.locator("body").textContent()).not.toContain(secret);
      await page.getByRole("button", { name: "退出登录" }).click();
      await page.locator(".sign-in").waitFor();
    } finally {
      await provider.stop();
      await mcp.stop();
    }
  }, 120_000);

  it("signs in, streams a cited answer, picks a knowledge base, confirms a record, and finds it all after a reload", async () => {
    await chatFlow(browsers.desktop, 1280);
  }, 180_000);

  it("does the same at a 375-pixel phone width", async () => {
    await chatFlow(browsers.phone, 375);
  }, 180_000);

  it("filters, renames, switches and deletes chats from the sidebar, and switches to English", async () => {
    const { page, shot } = browsers.desktop;
    await page.goto(baseUrl);
    await page.locator(".topbar, .sign-in").first().waitFor();
    if (await page.locator(".sign-in").isVisible()) await signIn(page, shot);
    await page.locator(".new-chat").click();
    const marker = `筛选测试 ${Date.now()}`;
    await (await ask(page, marker)).reply();
    const titles = page.locator(".chat-list .chat-title");
    await expect.poll(() => titles.first().textContent()).toContain("筛选测试");

    await page.getByRole("searchbox", { name: "按标题筛选对话" }).fill("筛选测试");
    await expect.poll(() => titles.count()).toBe(1);
    await page
      .getByRole("button", { name: /^重命名:/ })
      .first()
      .click();
    const renamed = `改名 ${Date.now()}`;
    await page.getByRole("textbox", { name: "新标题" }).fill(renamed);
    await page.keyboard.press("Enter");
    await expect.poll(() => titles.first().textContent()).toBe(renamed);

    await page.getByRole("searchbox", { name: "按标题筛选对话" }).fill("");
    await expect.poll(() => titles.count()).toBeGreaterThan(1);
    await page.locator(".chat-list .chat-title", { hasText: QUESTION }).first().click();
    await expect.poll(() => page.locator("article.from-user").first().textContent()).toContain(QUESTION);

    await page.getByRole("searchbox", { name: "按标题筛选对话" }).fill(renamed);
    await expect.poll(() => titles.count()).toBe(1);
    // A row's buttons are on the chat open now (a title gets the width elsewhere): open it first.
    await titles.first().click();
    await page
      .getByRole("button", { name: /^删除:/ })
      .first()
      .click();
    // The question keeps the chat's title, since the row it replaces is gone.
    expect(await page.locator(".chat-item.confirming").textContent()).toContain(`删除“${renamed}”？`);
    await page.locator(".chat-item.confirming").getByRole("button", { name: "删除" }).click();
    await expect.poll(() => titles.count()).toBe(0);
    await page.getByRole("searchbox", { name: "按标题筛选对话" }).fill("");

    await page.getByRole("button", { name: "Switch to English" }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
    await shot("9-english");
    await page.getByRole("button", { name: "切换到中文" }).click();
    await page.getByRole("button", { name: "退出登录" }).waitFor();
  });

  // An empty message box is two lines high: a hint taller than that is cut off mid-sentence on a phone.
  it("shows the message box's whole hint at a 375-pixel phone width, in Chinese and in English", async () => {
    const { page, shot } = browsers.phone;
    await page.goto(baseUrl);
    await page.locator(".topbar, .sign-in").first().waitFor();
    if (await page.locator(".sign-in").isVisible()) await signIn(page, shot);
    const hintFits = () =>
      page
        .getByRole("combobox", { name: /^(消息|Message)$/ })
        .evaluate((box) => (box as HTMLTextAreaElement).value === "" && box.scrollHeight <= box.clientHeight);
    expect(await hintFits()).toBe(true);
    await page.getByRole("button", { name: "Switch to English" }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor();
    expect(await hintFits()).toBe(true);
    await page.getByRole("button", { name: "切换到中文" }).click();
    await page.getByRole("button", { name: "退出登录" }).waitFor();
  });

  it("never opens the @ picker, picks or sends while an input method is composing", async () => {
    const { page, shot } = browsers.desktop;
    await page.goto(baseUrl);
    await page.locator(".topbar, .sign-in").first().waitFor();
    if (await page.locator(".sign-in").isVisible()) await signIn(page, shot);
    await page.locator(".new-chat").click();
    const box = messageBox(page);
    await box.focus();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Input.imeSetComposition", { text: "@", selectionStart: 1, selectionEnd: 1 });
    await cdp.send("Input.imeSetComposition", { text: "@zhi", selectionStart: 4, selectionEnd: 4 });
    // Enter while composing commits the composition in the IME; the page must neither pick nor send.
    await cdp.send("Input.dispatchKeyEvent", { type: "rawKeyDown", key: "Enter", code: "Enter", windowsVirtualKeyCode: 229 });
    await cdp.send("Input.dispatchKeyEvent", { type: "keyUp", key: "Enter", code: "Enter", windowsVirtualKeyCode: 229 });
    expect(await page.getByRole("listbox").count()).toBe(0);
    await cdp.send("Input.insertText", { text: "@质" });
    await shot("8-ime");
    expect(await page.getByRole("listbox").count()).toBe(0);
    expect(await box.inputValue()).toBe("@质");
    expect(await page.locator("article.from-user").count()).toBe(0);

    // The same characters typed without an input method do open it.
    await box.fill("");
    await page.keyboard.type("@");
    await expect.poll(() => page.getByRole("option").count()).toBeGreaterThan(0);
    await page.keyboard.press("Escape");
  });
});
