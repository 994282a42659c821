// What a new user meets in the chat, in Debian's Chromium at 1280 and 375 px: suggestions by role
// on an empty chat, a lookup as a table under one line, a follow-up, a question back and its
// answer, a dismissible offline notice, tool cards under their titles, and inline icons.
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { type Browser, desktopAndPhone, signInByKeyboard } from "./browser.ts";

const baseUrl = inject("baseUrl");

const answers = (page: Page) => page.locator("article.from-assistant");

const signIn = (page: Page, username: string, password: string) => signInByKeyboard(page, baseUrl, username, password);

async function replyAfter(page: Page, before: number): Promise<string> {
  await expect.poll(() => answers(page).count(), { timeout: 30_000 }).toBeGreaterThan(before);
  await page.locator("button.send").waitFor({ timeout: 30_000 });
  return (await answers(page).last().textContent()) ?? "";
}

async function ask(page: Page, text: string): Promise<string> {
  const before = await answers(page).count();
  await page.getByRole("combobox", { name: "消息" }).fill(text);
  await page.keyboard.press("Enter");
  return replyAfter(page, before);
}

async function tour(browser: Browser, width: number) {
  const { page, shot } = browser;
  await signIn(page, "boss", "boss123");
  // The header says who you are at any width; on a phone the workshop moves into the menu.
  await expect.poll(() => page.locator(".topbar .who").textContent()).toContain("王老板 · 老板");
  // Not cut off: the name and role fit in the header.
  const who = page.locator(".topbar .who");
  expect(await who.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  expect(await page.locator(".topbar .who .tenant").isVisible()).toBe(width > 760);

  // An empty chat suggests what a boss may ask; a click asks it.
  const suggestions = page.locator(".suggestions button");
  await expect.poll(() => suggestions.count()).toBeGreaterThanOrEqual(3);
  await shot("ux-1-suggestions");
  const before = await answers(page).count();
  await page.getByRole("button", { name: "张三这个月做了多少件" }).click();
  const first = await replyAfter(page, before);
  // It says first what it looked at: who, the period (a month still running) and the figures.
  expect(first).toMatch(/员工 张三 \(工号 001\)，本月（.+，进行中）：共 [\d,]+ 件，计 [\d,]+\.\d{2} 元（\d+ 条记录）。/);

  // The result is a table whose last row holds the totals, scrolling inside the message on a phone.
  const table = answers(page).last().locator("table");
  await table.waitFor();
  expect(await table.locator("tr").last().textContent()).toContain("合计");
  const fits = await page.evaluate(() =>
    [document.documentElement, document.querySelector(".messages") as Element].every((el) => el.scrollWidth <= el.clientWidth),
  );
  expect(fits).toBe(true);
  // The tool card shows its title, and its raw JSON only behind a second toggle.
  const card = answers(page).last().locator(".tool-card").first();
  expect(await card.locator(".tool-name").textContent()).toBe("查计件");
  // Its icon is the tool's own, from the address tools/list gives MCP clients.
  expect(await card.locator(".tool-icon").getAttribute("src")).toBe("/icons/records.svg");
  expect(await card.locator(".tool-icon").evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  await card.locator("summary").first().click();
  expect(await card.locator(".tool-line").first().textContent()).toBe("参数 员工: 张三 · 时间: 本月");
  expect(await card.locator(".tool-raw pre").first().isVisible()).toBe(false);
  await shot("ux-2-table");

  // A follow-up carries the period over to another person.
  expect(await ask(page, "那李娟呢？")).toMatch(/员工 李娟 \(工号 \d+\)，本月（.+）：共 [\d,]+ 件/);
  await shot("ux-3-follow-up");

  // A request that leaves something out gets a question back; the answer completes it.
  expect(await ask(page, "帮我录入，张三今天做了50件")).toContain("是哪道工序？");
  await shot("ux-4-question-back");
  await ask(page, "领子");
  await page.locator(".confirm-card").last().waitFor();
  expect(await page.locator(".confirm-card").last().textContent()).toContain("上领子");
  await shot("ux-5-card");

  // Once confirmed, the badge and the line that asked to decide it use the words the server's replies use (status-words.ts).
  const decidedCard = page.locator(".confirm-card").last();
  await decidedCard.getByRole("button", { name: "确认" }).click();
  await expect.poll(() => decidedCard.locator(".badge").textContent()).toBe("已确认");
  const decided = (await answers(page).last().textContent()) ?? "";
  expect(decided).toMatch(/已确认：.+。/);
  expect(decided).not.toContain("请在上面的确认卡片上点");

  // The offline notice can be dismissed.
  await page.locator(".offline-notice button").click();
  expect(await page.locator(".offline-notice").count()).toBe(0);

  // Icons are drawn inline, not left to an emoji font.
  if (width <= 760) await page.locator(".menu-toggle").click();
  expect(await page.locator(".sidebar button.icon svg").count()).toBeGreaterThan(0);
  if (width <= 760) {
    expect(await page.locator(".tenant-in-menu").textContent()).toBe("锦绣制衣");
    await shot("ux-6-menu");
  }
}

describe("the chat a new user meets, in Chromium", () => {
  const browsers = desktopAndPhone();

  it("suggests, answers in a table, follows up, asks back and confirms at 1280 px", async () => {
    await tour(browsers.desktop, 1280);
  });

  it("does the same at 375 px", async () => {
    await tour(browsers.phone, 375);
  });

  it("suggests to staff only what they may ask", async () => {
    await browsers.phone.context.clearCookies();
    await signIn(browsers.phone.page, "staff", "staff123");
    const suggestions = browsers.phone.page.locator(".suggestions button");
    await expect.poll(() => suggestions.count()).toBeGreaterThanOrEqual(3);
    const texts = await suggestions.allTextContents();
    expect(texts).toContain("我这个月的工资");
    expect(texts.join(" ")).not.toMatch(/张三|张敏/);
    await browsers.phone.shot("ux-7-staff-suggestions");
  });
});
