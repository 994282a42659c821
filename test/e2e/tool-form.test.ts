// A form for a registered server's tool, in Debian's Chromium at 1280 and 375 px: the reference
// "everything" server's get-sum named without its two numbers gets a form built from its schema;
// what is missing is said under the field, and a filled form calls the tool.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Started, startEverything } from "../../scripts/mcp-test-servers.ts";
import { type Browser, desktopAndPhone, signInByKeyboard } from "./browser.ts";

const baseUrl = inject("baseUrl");
const SERVER = `form${Date.now().toString(36)}`;

let everything: Started;
let serverId: string;

async function api(path: string, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? "GET",
    headers: { Authorization: "Bearer dev-boss-key", "Content-Type": "application/json" },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  everything = await startEverything("streamableHttp");
  const created = await api("/api/mcp/servers", { method: "POST", body: { name: SERVER, url: everything.url } });
  expect(created.status).toBe(201);
  serverId = created.body.id as string;
});

afterAll(async () => {
  if (serverId) await api(`/api/mcp/servers/${serverId}`, { method: "DELETE" });
  await everything?.stop();
});

const answers = (page: Page) => page.locator("article.from-assistant");

const signIn = (page: Page) => signInByKeyboard(page, baseUrl, "boss", "boss123");

async function replyAfter(page: Page, before: number) {
  await expect.poll(() => answers(page).count(), { timeout: 30_000 }).toBeGreaterThan(before);
  await page.locator("button.send").waitFor({ timeout: 30_000 });
}

async function tour(browser: Browser) {
  const { page, shot } = browser;
  await signIn(page);
  const before = await answers(page).count();
  await page.getByRole("combobox", { name: "消息" }).fill(`用 ${SERVER} 的 get-sum`);
  await page.keyboard.press("Enter");
  await replyAfter(page, before);

  // The message the form came with, by its place: later replies come after it.
  const form = answers(page).nth(before).locator("form.tool-form");
  await form.waitFor();
  expect(await form.locator("legend").textContent()).toBe("填写“Get Sum Tool”的参数");
  expect(await form.getByLabel("a（必填）").count()).toBe(1);
  expect(await form.getByLabel("b（必填）").count()).toBe(1);
  expect(await answers(page).last().textContent()).toContain("请在上面的表单里填好，再点“调用”。");
  // The call's card goes by the title the server gave its tool, and waits for the person.
  const card = answers(page).nth(before).locator(".tool-card").first();
  expect(await card.locator(".tool-name").textContent()).toBe("Get Sum Tool");
  expect(await card.locator(".badge").textContent()).toBe("待填写");
  // Nothing fits outside the message on a phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  await shot("form-1-shown");

  // What is missing or not a number is said under its field, and nothing is sent.
  await form.getByLabel("a（必填）").fill("two");
  await form.getByRole("button", { name: "调用" }).click();
  expect(await form.locator(".error-text").allTextContents()).toEqual(["请填一个数字。", "请填写这一项。"]);
  expect(await answers(page).count()).toBe(before + 1);
  await shot("form-2-problems");

  await form.getByLabel("a（必填）").fill("2");
  await form.getByLabel("b（必填）").fill("3.5");
  await form.getByRole("button", { name: "调用" }).click();
  await replyAfter(page, before + 1);
  expect(await page.locator("article.from-user .user-text").last().textContent()).toBe(`mcp_${SERVER}_get_sum {"a":2,"b":3.5}`);
  expect(await answers(page).last().textContent()).toContain("The sum of 2 and 3.5 is 5.5.");
  // The answered form can no longer be sent.
  expect(await form.getByRole("button", { name: "调用" }).isDisabled()).toBe(true);
  await shot("form-3-answered");
}

describe("a form for an external tool's arguments, in Chromium", () => {
  const browsers = desktopAndPhone();

  it("at 1280 px", async () => {
    await tour(browsers.desktop);
  });

  it("at 375 px", async () => {
    await tour(browsers.phone);
  });
});
