// Settings → 车间资料 as a boss uses it, against `npm run dev` in Debian's Chromium at phone and
// desktop width: an employee added, a process's price changed from a later day, an order moved on,
// each shown as what will change before 确认 writes it (audited as a settings form), and a 取消 that
// writes nothing. Its data is its own (a new employee, process and order per width), as the e2e
// files share one dev server's data; its order is cancelled at the end (business-data.ts).
import { afterAll, describe, expect, inject, it } from "vitest";
import { type Browser, launchBrowser } from "./browser.ts";
import { cancelOrder, checkShown, newOrder, signInAsBoss, written } from "./business-data.ts";

const baseUrl = inject("baseUrl");
const stamp = Date.now().toString(36);
const BOSS_KEY = { Authorization: "Bearer dev-boss-key", "Content-Type": "application/json" };
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

/** The day `days` after `day` (YYYY-MM-DD). */
function after(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

async function business(path: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}/api/business/${path}`, { headers: BOSS_KEY });
  return (await res.json()) as Record<string, unknown>;
}

describe("settings → 车间资料 for a boss", () => {
  for (const viewport of VIEWPORTS) {
    it(`adds an employee, changes a price from a day and moves an order on, each confirmed, at ${viewport.width} px`, async () => {
      const browser = await launchBrowser(viewport, `business-settings-${viewport.width}`);
      browsers.push(browser);
      const { page, shot } = browser;
      await signInAsBoss(page, baseUrl);

      // This width's own process and order, made before the page reads them.
      const tag = `${stamp}${viewport.width}`;
      const processName = `锁眼${tag}`;
      await written(page, { change: "process_add", style: "A01", name: processName, unit_price: 0.5 });
      const customer = `测试客户${tag}`;
      const orderNo = await newOrder(page, baseUrl, customer);

      await page.getByRole("button", { name: "设置" }).click();
      await page.getByRole("heading", { name: "车间资料" }).waitFor();
      const section = page.locator("section.business");

      // (a) An employee: added with a phone, 工号 made by Weft; the check shows it before anything is written.
      const name = `王强${tag}`;
      await section.getByRole("button", { name: "添加员工" }).click();
      const form = section.getByRole("form", { name: "添加员工" });
      await form.getByLabel("姓名").fill(name);
      await form.getByLabel("电话").fill("13800138000");
      await form.getByRole("button", { name: "下一步：看看会改什么" }).click();
      const check = section.getByRole("region", { name: "请确认以下修改" });
      const confirmedHere: string[] = [];
      await checkShown(page);
      expect(await check.textContent()).toContain(name);
      await shot("employee-check");
      confirmedHere.push((await check.getAttribute("data-action-id")) ?? "");
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await check.getByRole("button", { name: "确认" }).click();
      const row = section.locator("li[data-employee-id]", { hasText: name });
      await row.waitFor();
      expect(await row.textContent()).toContain("13800138000");
      expect(await row.textContent()).toContain("在职");
      const employees = (await business("employees")).employees as { name: string; employee_no: string }[];
      expect(employees.find((e) => e.name === name)?.employee_no).toMatch(/^\d+$/);

      // A phone taken away: the check shows the old one, and the row has none after 确认.
      await row.getByRole("button", { name: "修改" }).click();
      await section
        .getByRole("form", { name: `修改 ${name}` })
        .getByLabel("电话")
        .fill("");
      await section
        .getByRole("form", { name: `修改 ${name}` })
        .getByRole("button", { name: "下一步：看看会改什么" })
        .click();
      await checkShown(page);
      expect(await check.textContent()).toContain("13800138000");
      confirmedHere.push((await check.getAttribute("data-action-id")) ?? "");
      await check.getByRole("button", { name: "确认" }).click();
      await expect.poll(() => row.textContent()).not.toContain("13800138000");

      // A cancel writes nothing: marking them as left, then 取消.
      await row.getByRole("button", { name: "标记离职" }).click();
      await checkShown(page);
      await check.getByRole("button", { name: "取消" }).click();
      await section.getByText("已取消，没有写入任何内容。").waitFor();
      expect(await row.getAttribute("data-status")).toBe("active");

      // (b) A price from a later day: today's stays, the new one is shown with its day.
      const { today } = (await business("styles")) as { today: string };
      const from = after(today, 7);
      await section.locator("details.business-style", { hasText: "A01" }).locator("summary").click();
      const processRow = section.locator(`li[data-process="${processName}"]`);
      await processRow.getByRole("button", { name: "改单价" }).click();
      const priceForm = processRow.getByRole("form");
      expect(await priceForm.getByLabel("从哪天起").inputValue()).toBe(today);
      await priceForm.getByLabel("单价（元）").fill("0.65");
      await priceForm.getByLabel("从哪天起").fill(from);
      await priceForm.getByRole("button", { name: "下一步：看看会改什么" }).click();
      await checkShown(page);
      const priceCheck = (await check.textContent()) ?? "";
      expect(priceCheck).toContain("0.50");
      expect(priceCheck).toContain("0.65");
      await shot("price-check");
      confirmedHere.push((await check.getAttribute("data-action-id")) ?? "");
      await check.getByRole("button", { name: "确认" }).click();
      await expect.poll(() => processRow.textContent()).toContain(`${from} 起 ¥0.65`);
      expect(await processRow.textContent()).toContain("¥0.50");

      // (c) The new order: 待生产 → 生产中, confirmed; the list shows its new status.
      const orderRow = section.locator("li[data-order-id]", { hasText: customer });
      expect(await orderRow.getAttribute("data-status")).toBe("pending");
      await orderRow.getByRole("button", { name: "修改" }).click();
      await orderRow.getByLabel("改状态").selectOption("in_production");
      await orderRow.getByRole("button", { name: "下一步：看看会改什么" }).click();
      await checkShown(page);
      const orderCheck = (await check.textContent()) ?? "";
      expect(orderCheck).toContain("待生产");
      expect(orderCheck).toContain("生产中");
      await shot("order-check");
      confirmedHere.push((await check.getAttribute("data-action-id")) ?? "");
      await check.getByRole("button", { name: "确认" }).click();
      await expect.poll(() => orderRow.getAttribute("data-status")).toBe("in_production");

      // A cancel without a reason is not sent.
      await orderRow.getByRole("button", { name: "修改" }).click();
      await orderRow.getByLabel("改状态").selectOption("cancelled");
      await orderRow.getByLabel("取消原因").fill(" ");
      await orderRow.getByRole("button", { name: "下一步：看看会改什么" }).click();
      await orderRow.getByText("取消订单请写明原因。").waitFor();
      await orderRow.getByRole("button", { name: "取消" }).click();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await shot("after");

      // Each yes given here is in the audit as a settings form's.
      const audit = await fetch(`${baseUrl}/api/audit?limit=100`, { headers: BOSS_KEY });
      const entries = ((await audit.json()) as { entries: { action_id: string; confirmed_via: string | null }[] }).entries;
      for (const id of confirmedHere) {
        expect(entries.find((e) => e.action_id === id)?.confirmed_via).toBe("settings");
      }
      await cancelOrder(page, orderNo);
    });
  }
});
