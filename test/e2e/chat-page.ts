// What the browser tests of a reply in flight share: the question whose answer the paced offline
// model writes slowly, and how a test asks it and waits for its words and its end.
import type { Page } from "playwright-core";
import { expect } from "vitest";

export const QUESTION = "怎么新建订单";
export const answers = (page: Page) => page.locator("article.from-assistant");
export const questions = (page: Page) => page.locator("article.from-user");

/** Sends a question and waits until its answer has begun to show (some of it, not all). */
export async function askAndWaitForWords(page: Page, text: string): Promise<void> {
  const before = await answers(page).count();
  await page.getByRole("combobox", { name: "消息" }).fill(text);
  await page.keyboard.press("Enter");
  await expect.poll(() => answers(page).count(), { timeout: 30_000 }).toBeGreaterThan(before);
  await expect
    .poll(async () => ((await answers(page).last().textContent()) ?? "").length, { timeout: 30_000 })
    .toBeGreaterThan(5);
}

/** Waits until the last answer has ended and the send button is back. */
export async function waitForEnd(page: Page): Promise<void> {
  await page.locator("button.send").waitFor({ timeout: 60_000 });
  await expect.poll(() => answers(page).last().getAttribute("aria-busy"), { timeout: 60_000 }).toBe("false");
}
