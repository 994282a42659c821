// Answers a person can read at 1280 and 375 px, in Debian's Chromium: a wide table takes the
// conversation's width on a desktop, and on a phone a table is a card per row whose answer columns
// (数量, 金额, 实发) and total row are on the screen; a card's open question is answered by a tap.
import { readFileSync } from "node:fs";
import type { Locator, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { desktopAndPhone, signInByKeyboard } from "./browser.ts";
import { cancelOrder, newOrder } from "./business-data.ts";

const baseUrl = inject("baseUrl");

const answers = (page: Page) => page.locator("article.from-assistant");

async function ask(page: Page, text: string): Promise<Locator> {
  const before = await answers(page).count();
  await page.getByRole("combobox", { name: "消息" }).fill(text);
  await page.keyboard.press("Enter");
  await expect.poll(() => answers(page).count(), { timeout: 30_000 }).toBeGreaterThan(before);
  await page.locator("button.send").waitFor({ timeout: 30_000 });
  return answers(page).last();
}

// Whether an element lies wholly inside the viewport's width.
async function onScreen(element: Locator, width: number): Promise<boolean> {
  const box = await element.boundingBox();
  return box !== null && box.x >= 0 && box.x + box.width <= width + 0.5 && box.width > 0;
}

describe("tables and card choices a person can read, in Chromium", () => {
  const browsers = desktopAndPhone();

  it("shows the nine-plus-column order table whole at 1280 px, 备注 included", async () => {
    const { page, shot } = browsers.desktop;
    await signInByKeyboard(page, baseUrl, "boss", "boss123");
    // A customer's full company name is long: its cell wraps rather than widening the table.
    const customer = `广州市白云区锦绣服装辅料有限公司${Date.now().toString(36)}`;
    await cancelOrder(page, await newOrder(page, baseUrl, customer));
    const answer = await ask(page, "全部订单");
    const table = answer.locator("table");
    await table.waitFor();
    // Nothing scrolls: every column, the notes too, is inside the table's box and the screen.
    expect(await table.evaluate((t) => t.scrollWidth <= t.clientWidth + 1)).toBe(true);
    for (const title of ["订单号", "客户", "数量", "交期", "状态", "备注", "进度"]) {
      expect(await onScreen(table.locator("th", { hasText: title }).first(), 1280)).toBe(true);
    }
    const long = table.locator('td[data-label="客户"]', { hasText: customer });
    expect(await onScreen(long, 1280)).toBe(true);
    const note = table.locator('td[data-label="备注"]', { hasText: "白色，纯棉" });
    expect(await note.count()).toBe(1);
    expect(await onScreen(note, 1280)).toBe(true);
    // The answer takes the conversation's width rather than a narrow column beside empty space.
    const column = await page.locator(".messages").boundingBox();
    const box = await answer.boundingBox();
    expect(box && column && box.width).toBeGreaterThan((column?.width ?? 0) * 0.85);
    await shot("tables-1-orders-1280");
    // A long table ends above what follows it (👍/👎), not under it.
    const tableBox = await table.boundingBox();
    const actionsBox = await answer.locator(".answer-actions").boundingBox();
    expect(actionsBox?.y).toBeGreaterThanOrEqual((tableBox?.y ?? 0) + (tableBox?.height ?? 0));
  });

  it("puts 数量, 金额 and the total on the screen at 375 px, a card per row", async () => {
    const { page, shot } = browsers.phone;
    await signInByKeyboard(page, baseUrl, "boss", "boss123");
    // Not a suggestion's words: a chat titled like one would stand beside it in other tests.
    const answer = await ask(page, "张三这个月的计件记录");
    const table = answer.locator("table");
    await table.waitFor();
    const first = table.locator("tbody tr").first();
    for (const title of ["数量", "金额", "工序", "日期"]) {
      const cell = first.locator(`td[data-label="${title}"]`);
      expect(await cell.textContent()).not.toBe("");
      expect(await onScreen(cell, 375)).toBe(true);
    }
    const total = table.locator("tbody tr").last();
    expect(await total.textContent()).toContain("合计");
    await total.scrollIntoViewIfNeeded();
    expect(await onScreen(total.locator('td[data-label="金额"]'), 375)).toBe(true);
    expect(await total.locator('td[data-label="金额"]').textContent()).toMatch(/¥[\d,]+\.\d{2}/);
    // The page itself never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    // Cards taller than a screen push 👍/👎 down rather than sliding under them.
    const tableBox = await table.boundingBox();
    const actionsBox = await answer.locator(".answer-actions").boundingBox();
    expect(actionsBox?.y).toBeGreaterThanOrEqual((tableBox?.y ?? 0) + (tableBox?.height ?? 0));
    await first.scrollIntoViewIfNeeded();
    await shot("tables-2-pieces-375");
  });

  it("shows a staff member's 实发 on the screen at 375 px", async () => {
    const { page, context, shot } = browsers.phone;
    await context.clearCookies();
    await signInByKeyboard(page, baseUrl, "staff", "staff123");
    const answer = await ask(page, "我这个月的工资");
    const net = answer.locator('table td[data-label="实发"]').first();
    await net.waitFor();
    await net.scrollIntoViewIfNeeded();
    expect(await net.textContent()).toMatch(/[\d,]+\.\d{2}/);
    expect(await onScreen(net, 375)).toBe(true);
    await shot("tables-3-payslip-375");
  });

  it("answers a card's open question by a tap, with a new card that can be confirmed", async () => {
    const { page, shot } = browsers.desktop;
    // 裁剪 is a process of both styles, so recording it asks which.
    const asked = await ask(page, "给刘强记60件裁剪");
    const card = asked.locator(".confirm-card");
    const choices = card.locator("button.choice");
    await expect.poll(() => choices.count()).toBe(2);
    // The card and the reply under it say the same thing.
    const hint = (await card.locator(".choice-hint").textContent()) ?? "";
    expect(hint).toContain("点一个选项");
    expect(await asked.locator(".markdown").last().textContent()).toContain(hint);
    await shot("tables-4-card-choices");
    const a01 = choices.filter({ hasText: "A01" });
    const label = (await a01.textContent()) ?? "";
    const before = await answers(page).count();
    await a01.click();
    await expect.poll(() => answers(page).count(), { timeout: 30_000 }).toBeGreaterThan(before);
    await page.locator("button.send").waitFor({ timeout: 30_000 });
    await shot("tables-5-tapped");
    expect(await page.locator("article.from-user .user-text").last().textContent()).toBe(label);
    const again = answers(page).last().locator(".confirm-card");
    await again.waitFor();
    expect(await again.locator("button.choice").count()).toBe(0);
    expect(await again.textContent()).toContain("A01 男式衬衫");
    expect(await again.getByRole("button", { name: "确认" }).isVisible()).toBe(true);
    await shot("tables-6-chosen");
    // Cancelled, so the demo records stay as they were for the other tests.
    await again.getByRole("button", { name: "取消" }).click();
    await expect.poll(() => again.locator(".badge").textContent()).toBe("已取消");
  });

  it("exports the chat as a conversation a person can read, under its title and day", async () => {
    const { page } = browsers.desktop;
    const link = page.locator(".chat-item.current a[download]");
    const href = (await link.getAttribute("href")) ?? "";
    expect(href).toMatch(/\/export\?lang=zh$/);
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^全部订单 \d{4}-\d{2}-\d{2}\.md$/);
    const path = await download.path();
    const text = readFileSync(path, "utf8");
    expect(text).toMatch(/^# 全部订单\n\n_创建于 \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    expect(text).toContain("## 我\n\n给刘强记60件裁剪");
    expect(text).toContain("> **确认卡片**（已取消）：计件登记：刘强 裁剪 60 件");
    expect(text).toContain("| 订单号 | 客户 |");
    expect(text).not.toMatch(/[0-9a-f]{64}|"status"|do not say it is done|## You/);
  });
});
