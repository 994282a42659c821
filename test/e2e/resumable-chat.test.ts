// A reply that survives a reload and a dropped connection, a stop that stops the model, answer
// again, edit and feedback, in Debian's Chromium at 1280 and 375 px, against `npm run dev` with a
// slow model stand-in (WEFT_CHAT_PACE_MS) so a reply lasts long enough to interrupt.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, startDevServer } from "../../scripts/dev-server.ts";
import { type Browser, launchBrowser, signInByKeyboard } from "./browser.ts";
import { answers, askAndWaitForWords, QUESTION, questions, waitForEnd } from "./chat-page.ts";

let server: DevServer;
let desktop: Browser;
let phone: Browser;

beforeAll(async () => {
  server = await startDevServer({ env: { WEFT_CHAT_PACE_MS: "120" }, timeoutMs: 280_000 });
  desktop = await launchBrowser({ width: 1280, height: 800 }, "desktop");
  phone = await launchBrowser({ width: 375, height: 740 }, "phone");
}, 400_000);

afterAll(async () => {
  await desktop?.close();
  await phone?.close();
  await server?.stop();
});

/** The chat as the server stores it, read by the page with its session. */
async function storedChat(page: Page) {
  return page.evaluate(async () => {
    const id = /^#chat=(.+)$/.exec(location.hash)?.[1];
    const res = await fetch(`/api/chats/${id}`, { credentials: "same-origin" });
    return (await res.json()) as {
      messages: { role: string; parts: { type: string; text?: string }[]; metadata?: Record<string, unknown> }[];
    };
  });
}

const textOf = (message: { parts: { type: string; text?: string }[] }) =>
  message.parts
    .filter((p) => p.type === "text")
    .map((p) => p.text)
    .join("");

/** The answer as shown, without what is shown under it (its buttons and badges). */
const shownAnswer = (page: Page) =>
  answers(page)
    .last()
    .evaluate((el) => {
      const copy = el.cloneNode(true) as HTMLElement;
      for (const extra of copy.querySelectorAll(".answer-actions, .sr-only, .tool")) extra.remove();
      return (copy.textContent ?? "").replace(/\s+/g, "");
    });

describe("a reply that survives a reload or a dropped connection, in Chromium", () => {
  it("continues a reply after a reload mid-reply, nothing lost or doubled", { timeout: 120_000 }, async () => {
    const { page, shot } = desktop;
    await signInByKeyboard(page, server.baseUrl, "boss", "boss123");
    await askAndWaitForWords(page, QUESTION);
    await page.reload();
    await page.locator(".topbar").waitFor();
    // The reply goes on after the reload, from its first word, in the same answer.
    await expect.poll(() => answers(page).count(), { timeout: 30_000 }).toBe(1);
    await waitForEnd(page);
    await shot("resume-1-after-reload");
    const chat = await storedChat(page);
    expect(chat.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    const stored = textOf(chat.messages[1] as { parts: { type: string; text?: string }[] }).replace(/\s+/g, "");
    expect(stored.length).toBeGreaterThan(20);
    // Streamdown renders Markdown, so the shown text is compared without its marks.
    const shown = await shownAnswer(page);
    expect(shown.length).toBeGreaterThan(stored.length * 0.8);
    expect(shown.length).toBeLessThanOrEqual(stored.length);
  });

  it("continues a reply after the connection drops and comes back", { timeout: 120_000 }, async () => {
    const { page } = desktop;
    await page.locator(".new-chat").click();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await askAndWaitForWords(page, QUESTION);
    await cdp.send("Network.emulateNetworkConditions", {
      offline: true,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await page.waitForTimeout(1500);
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await waitForEnd(page);
    await expect
      .poll(async () => (await storedChat(page)).messages.map((m) => m.role), { timeout: 30_000 })
      .toEqual(["user", "assistant"]);
    const chat = await storedChat(page);
    const stored = textOf(chat.messages[1] as { parts: { type: string; text?: string }[] }).replace(/\s+/g, "");
    await expect.poll(() => shownAnswer(page), { timeout: 30_000 }).not.toBe("");
    const shown = await shownAnswer(page);
    expect(shown.length).toBeGreaterThan(stored.length * 0.8);
    expect(shown.length).toBeLessThanOrEqual(stored.length);
    expect(await answers(page).count()).toBe(1);
    await cdp.detach();
  });

  it("stops the model with the stop button and keeps the partial reply, marked stopped", { timeout: 120_000 }, async () => {
    const { page, shot } = desktop;
    await page.locator(".new-chat").click();
    await askAndWaitForWords(page, QUESTION);
    await page.locator("button.stop").click();
    await page.locator("button.send").waitFor({ timeout: 10_000 });
    await expect.poll(() => page.locator("[data-ended=stopped]").count(), { timeout: 10_000 }).toBe(1);
    await shot("resume-2-stopped");
    const chat = await storedChat(page);
    expect(chat.messages[1]?.metadata).toMatchObject({ ended: "stopped" });
  });
});

async function answerAgainEditAndRate(browser: Browser, width: number) {
  const { page, shot } = browser;
  // The phone signs in to a new chat; the desktop, signed in above, starts one from the sidebar.
  if (width < 400) await signInByKeyboard(page, server.baseUrl, "boss", "boss123");
  else await page.locator(".new-chat").click();
  await askAndWaitForWords(page, QUESTION);
  await waitForEnd(page);

  // Answer again: the earlier answer stays reachable.
  await answers(page).last().getByRole("button", { name: "重新回答" }).click();
  await expect.poll(() => page.locator("details.versions").count(), { timeout: 60_000 }).toBe(1);
  await waitForEnd(page);
  await page.locator("details.versions summary").click();
  await expect.poll(() => page.locator("details.versions .version").count()).toBe(1);
  expect(await answers(page).count()).toBe(1);
  await shot("resume-3-answered-again");

  // Edit the question and ask again: the question before the edit stays reachable.
  await page.getByRole("button", { name: "修改问题" }).click();
  await page.getByRole("textbox", { name: "修改问题" }).fill("锁边机断线怎么办");
  await page.getByRole("button", { name: "重新提问" }).click();
  await expect.poll(() => questions(page).last().textContent(), { timeout: 30_000 }).toContain("锁边机断线怎么办");
  await waitForEnd(page);
  expect(await questions(page).count()).toBe(1);
  expect(await page.locator("article.from-user details.versions summary").textContent()).toContain("修改前的问题（1）");

  // 👎 with a line.
  await answers(page).last().getByRole("button", { name: "回答得不对" }).click();
  await page.getByRole("textbox", { name: "哪里不对？（可不填）" }).fill(`说的不是锁边机 ${width}`);
  await page.getByRole("button", { name: "提交" }).click();
  await page.getByText("谢谢，已记下").waitFor();
  await shot("resume-4-feedback");
  const fits = await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
  expect(fits).toBe(true);

  // A boss sees it in settings, and adds an FAQ entry pre-filled from the question.
  await page.locator(".settings-toggle").click();
  const item = page.locator(".feedback-list > li", { hasText: `说的不是锁边机 ${width}` });
  await item.waitFor({ timeout: 30_000 });
  expect(await item.locator(".feedback-question").textContent()).toBe("锁边机断线怎么办");
  await item.getByRole("button", { name: "添加为常见问题" }).click();
  expect(await item.getByRole("textbox", { name: "问题" }).inputValue()).toBe("锁边机断线怎么办");
  await item.getByRole("textbox", { name: "问题" }).fill(`锁边机断线怎么办（${width}）`);
  await item.getByRole("textbox", { name: "正确的回答" }).fill("先检查穿线顺序，再调张力。");
  await item.getByRole("button", { name: "保存" }).click();
  await item.getByText("已添加为常见问题").waitFor();
  await shot("resume-5-feedback-review");
  await page.locator(".settings-toggle").click();
}

describe("answer again, edit and feedback, in Chromium", () => {
  it("works at 1280 px", { timeout: 180_000 }, () => answerAgainEditAndRate(desktop, 1280));
  it("works at 375 px", { timeout: 180_000 }, () => answerAgainEditAndRate(phone, 375));
});
