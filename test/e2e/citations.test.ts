// A cited source opens its passage without leaving the chat, in Debian's Chromium: beside the
// conversation at 1280 px, as a sheet from the bottom at 375 px; Esc and the close button close it.
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { type Browser, desktopAndPhone, signInByKeyboard } from "./browser.ts";

const baseUrl = inject("baseUrl");
const QUESTION = "怎么设置工序单价";

const answers = (page: Page) => page.locator("article.from-assistant");

const signIn = (page: Page, username: string, password: string) => signInByKeyboard(page, baseUrl, username, password);

async function ask(page: Page, text: string) {
  const before = await answers(page).count();
  await page.getByRole("combobox", { name: "消息" }).fill(text);
  await page.keyboard.press("Enter");
  await expect.poll(() => answers(page).count(), { timeout: 30_000 }).toBeGreaterThan(before);
  await page.locator("button.send").waitFor({ timeout: 30_000 });
}

async function tour(browser: Browser, width: number, height: number) {
  const { page, shot } = browser;
  await signIn(page, "staff", "staff123");
  await ask(page, QUESTION);
  const answer = answers(page).last();
  // The inline marker and the source line are both links to the passage.
  const links = answer.locator("a.citation-link");
  await expect.poll(() => links.count()).toBeGreaterThanOrEqual(2);
  const sourceLine = links.filter({ hasText: /^\[1\] ./ }).first();
  const cited = (await sourceLine.textContent()) ?? "";
  expect(cited).toMatch(/^\[1\] .+/);
  await shot("cite-1-answer");

  // The marker after a quoted sentence opens the passage with the sentence marked and in view.
  const address = page.url();
  await links.first().click();
  const panel = page.getByRole("dialog", { name: /./ });
  await panel.locator(".source-text mark").first().waitFor();
  const title = cited.replace(/^\[1\] /, "").split(" › ")[0] ?? "";
  expect(await panel.locator("h2").textContent()).toBe(title);
  expect(await panel.locator(".source-where").textContent()).toMatch(/^知识库.+/);
  const mark = panel.locator(".source-text mark").first();
  const quoted = (await mark.textContent()) ?? "";
  expect(await answer.textContent()).toContain(quoted);
  const box = await mark.boundingBox();
  const area = await panel.boundingBox();
  expect(box && area && box.y >= area.y && box.y + box.height <= area.y + area.height).toBe(true);

  // Beside the conversation on a desktop; a sheet over the bottom of the screen on a phone. The chat stays.
  if (width > 760) {
    expect(Math.round((area?.x ?? 0) + (area?.width ?? 0))).toBe(width);
    expect(area?.width).toBeLessThan(width / 2);
  } else {
    expect(Math.round(area?.width ?? 0)).toBe(width);
    expect(Math.round((area?.y ?? 0) + (area?.height ?? 0))).toBe(height);
    expect(area?.height).toBeLessThan(height);
  }
  expect(await page.locator(".topbar").isVisible()).toBe(true);
  expect(page.url()).toBe(address);
  await shot("cite-2-panel");

  // Esc closes it and gives the focus back to the citation.
  await page.keyboard.press("Escape");
  await expect.poll(() => panel.count()).toBe(0);
  expect(await page.evaluate(() => document.activeElement?.classList.contains("citation-link"))).toBe(true);

  // The source line opens it too; the close button closes it.
  await sourceLine.click();
  await panel.locator(".source-text").waitFor();
  await panel.getByRole("button", { name: "关闭原文" }).click();
  await expect.poll(() => panel.count()).toBe(0);

  // A reload keeps the links: the sources are stored with the reply.
  await page.reload();
  await expect.poll(() => answers(page).last().locator("a.citation-link").count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  await answers(page).last().locator("a.citation-link").first().click();
  await page.locator(".source-panel .source-text mark").first().waitFor();
  await shot("cite-3-after-reload");
}

describe("a citation opens its passage beside the chat, in Chromium", () => {
  const browsers = desktopAndPhone();

  it("at 1280 px, in a side panel", async () => {
    await tour(browsers.desktop, 1280, 800);
  });

  it("at 375 px, in a bottom sheet", async () => {
    await tour(browsers.phone, 375, 740);
  });
});
