// Settings → 车间资料 beyond employees and orders, against `npm run dev` in Debian's Chromium at phone
// and desktop width: the workshop's name and time zone (checked, then 取消: the name is the top
// bar's for every other test), a style added and renamed, a process added to it, its price changed
// from a later day, its price history shown, the process renamed, stopped and started again — each
// shown as old → new before 确认 writes it, audited as a settings form's yes. The style is this
// test's own, as the e2e files share one dev server's data.
import type { Locator, Page } from "playwright-core";
import { afterAll, describe, expect, inject, it } from "vitest";
import { type Browser, launchBrowser } from "./browser.ts";
import { checkShown, signInAsBoss } from "./business-data.ts";

const baseUrl = inject("baseUrl");
const stamp = Date.now().toString(36).slice(-5).toUpperCase();
const BOSS_KEY = { Authorization: "Bearer dev-boss-key" };
const VIEWPORTS = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
];

const browsers: Browser[] = [];
afterAll(async () => {
  for (const browser of browsers) {
    expect(browser.takeCspViolations()).toEqual([]);
    await browser.close();
  }
});

/** Confirms the check shown and waits for the lists to be read again; the action's id. */
async function confirm(page: Page): Promise<string> {
  const shown = page.locator("section.business .business-check");
  const id = (await shown.getAttribute("data-action-id")) ?? "";
  await shown.getByRole("button", { name: "确认" }).click();
  await page.locator("section.business .business-notice", { hasText: "已写入。" }).waitFor();
  return id;
}

/** Opens a style's list if the lists' reload closed it (`open` is an empty attribute when open). */
async function opened(style: Locator): Promise<void> {
  if ((await style.getAttribute("open")) === null) await style.locator("summary").click();
}

function after(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

describe("settings → 车间资料: the workshop, styles and processes", () => {
  for (const viewport of VIEWPORTS) {
    it(`changes a style and its process from name to price history, each confirmed, at ${viewport.width} px`, async () => {
      const browser = await launchBrowser(viewport, `business-catalog-${viewport.width}`);
      browsers.push(browser);
      const { page, shot } = browser;
      await signInAsBoss(page, baseUrl);
      await page.getByRole("button", { name: "设置" }).click();
      await page.getByRole("heading", { name: "车间资料" }).waitFor();
      const section = page.locator("section.business");
      const written: string[] = [];

      // The workshop: its name and zone shown; a new name is checked (old → new) and 取消 keeps it.
      const workshop = section.locator('section[aria-labelledby="business-workshop"]');
      expect(await workshop.textContent()).toContain("锦绣制衣");
      expect(await workshop.textContent()).toContain("Asia/Shanghai");
      await workshop.getByRole("button", { name: "修改车间名称或时区" }).click();
      await workshop.getByLabel("车间名称", { exact: true }).fill("锦绣服装厂");
      await workshop.getByRole("button", { name: "下一步：看看会改什么" }).click();
      const renamed = await checkShown(page);
      expect(renamed).toContain("锦绣制衣");
      expect(renamed).toContain("锦绣服装厂");
      await shot("workshop-check");
      await section.locator(".business-check").getByRole("button", { name: "取消" }).click();
      await section.getByText("已取消，没有写入任何内容。").waitFor();
      expect(await workshop.locator("dd").first().textContent()).toBe("锦绣制衣");

      // A style of this test's own: added, then its name changed.
      const code = `T${stamp}${viewport.width}`;
      await section.getByRole("button", { name: "添加款式" }).click();
      const styleForm = section.getByRole("form", { name: "添加款式" });
      await styleForm.getByLabel("款号", { exact: true }).fill(code);
      await styleForm.getByLabel("款式名称", { exact: true }).fill("童装衬衫");
      await styleForm.getByRole("button", { name: "下一步：看看会改什么" }).click();
      expect(await checkShown(page)).toContain(code);
      written.push(await confirm(page));
      const style = section.locator("details.business-style", { hasText: code });
      await style.locator("summary").click();
      await style.getByRole("button", { name: "修改款式" }).click();
      await style.getByLabel("款式名称", { exact: true }).fill("童装短袖衬衫");
      await style.getByRole("button", { name: "下一步：看看会改什么" }).click();
      expect(await checkShown(page)).toContain("童装短袖衬衫");
      written.push(await confirm(page));
      await expect.poll(() => style.locator("summary").textContent()).toContain("童装短袖衬衫");
      await opened(style);

      // A process added to it, and its price from a later day: today's stays, the history shows both.
      await style.getByRole("button", { name: "添加工序" }).click();
      await style.getByLabel("工序名").fill("打枣");
      await style.getByLabel("单价（元）").fill("0.5");
      await style.getByRole("button", { name: "下一步：看看会改什么" }).click();
      expect(await checkShown(page)).toContain("打枣");
      written.push(await confirm(page));
      await opened(style);
      const row = style.locator('li[data-process="打枣"]');
      const { today } = (await (await fetch(`${baseUrl}/api/business/styles`, { headers: BOSS_KEY })).json()) as {
        today: string;
      };
      const from = after(today, 3);
      await row.getByRole("button", { name: "改单价" }).click();
      await row.getByLabel("单价（元）").fill("0.65");
      await row.getByLabel("从哪天起").fill(from);
      await row.getByRole("button", { name: "下一步：看看会改什么" }).click();
      await checkShown(page);
      written.push(await confirm(page));
      await row.getByRole("button", { name: "改价记录" }).click();
      const history = row.getByRole("list", { name: "改价记录 打枣" });
      await expect.poll(() => history.textContent()).toContain(`${from} 起 ¥0.65`);
      expect(await history.textContent()).toContain("最初 ¥0.50");
      await shot("history");

      // Renamed, stopped (a badge and 启用), started again.
      await row.getByRole("button", { name: "改名" }).click();
      await row.getByLabel("新名称").fill("打枣（套结）");
      await row.getByRole("button", { name: "下一步：看看会改什么" }).click();
      expect(await checkShown(page)).toContain("打枣（套结）");
      written.push(await confirm(page));
      await opened(style);
      const again = style.locator('li[data-process="打枣（套结）"]');
      await again.getByRole("button", { name: "停用" }).click();
      await checkShown(page);
      written.push(await confirm(page));
      await opened(style);
      await expect.poll(() => again.textContent()).toContain("已停用");
      await again.getByRole("button", { name: "启用" }).click();
      await checkShown(page);
      written.push(await confirm(page));
      await opened(style);
      await expect.poll(() => again.textContent()).not.toContain("已停用");
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await shot("after");

      // Each yes given here is in the audit as a settings form's.
      const audit = await fetch(`${baseUrl}/api/audit?limit=100`, { headers: BOSS_KEY });
      const entries = ((await audit.json()) as { entries: { action_id: string; confirmed_via: string | null }[] }).entries;
      for (const id of written) expect(entries.find((e) => e.action_id === id)?.confirmed_via).toBe("settings");
    });
  }
});
