// Settings → 车间资料's 补贴和扣款 and imports, against `npm run dev` in Debian's Chromium at phone and
// desktop width: a 补贴 entered for an employee, listed for the month, in the business routes and in
// the audit as a settings form's yes, then taken back; an employee list saved by Excel as CSV (UTF-8
// with a BOM) and a price list written by SheetJS as .xlsx, each with a good row, a changed one and a
// broken one: the report names the broken row and column, 确认 writes the good rows, and 取消 on
// another file writes nothing. Its employees, style and processes are its own (the e2e files share
// one dev server's data); its employees are marked as left and its processes stopped at the end.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as XLSX from "@e965/xlsx";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, inject, it } from "vitest";
import type { AdjustmentView, EmployeeView, StyleView } from "../../src/shapes.ts";
import { type Browser, launchBrowser } from "./browser.ts";
import { checkShown, signInAsBoss, written } from "./business-data.ts";

const baseUrl = inject("baseUrl");
const stamp = Date.now().toString(36).slice(-5).toUpperCase();
const BOSS_KEY = { Authorization: "Bearer dev-boss-key" };
const VIEWPORTS = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
];
const files = mkdtempSync(join(tmpdir(), "weft-import-e2e-"));

const browsers: Browser[] = [];
afterAll(async () => {
  for (const browser of browsers) {
    expect(browser.takeCspViolations()).toEqual([]);
    await browser.close();
  }
});

async function business<T>(path: string): Promise<T> {
  const res = await fetch(`${baseUrl}/api/business/${path}`, { headers: BOSS_KEY });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

const employeesNow = async () => (await business<{ employees: EmployeeView[] }>("employees")).employees;
const styleNow = async (code: string) => (await business<{ styles: StyleView[] }>("styles")).styles.find((s) => s.code === code);

/** Decides the check shown and waits for the section's notice; the action's id. */
async function decide(page: Page, button: "确认" | "取消"): Promise<string> {
  const shown = page.locator("section.business .business-check");
  const id = (await shown.getAttribute("data-action-id")) ?? "";
  await shown.getByRole("button", { name: button }).click();
  await page
    .locator("section.business .business-notice", { hasText: button === "确认" ? "已写入。" : "已取消，没有写入任何内容。" })
    .waitFor();
  return id;
}

async function noOverflow(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

describe("settings → 车间资料: 补贴和扣款 and imports", () => {
  for (const viewport of VIEWPORTS) {
    it(`enters a 补贴 and takes it back, and imports a CSV and an xlsx with good, changed and broken rows, at ${viewport.width} px`, async () => {
      const browser = await launchBrowser(viewport, `business-more-${viewport.width}`);
      browsers.push(browser);
      const { page, shot } = browser;
      await signInAsBoss(page, baseUrl);

      // This width's own employee, style and process, made before the page reads them.
      const tag = `${stamp}${viewport.width}`;
      const worker = `李测${tag}`;
      await written(page, { change: "employee_add", name: worker, phone: "13700000000" });
      const code = `M${tag}`;
      await written(page, { change: "style_add", code, name: `测试款${tag}` });
      await written(page, { change: "process_add", style: code, name: "锁边", unit_price: 0.5 });
      const employee = (await employeesNow()).find((e) => e.name === worker);
      expect(employee).toBeTruthy();
      const employeeId = employee?.id ?? "";

      await page.getByRole("button", { name: "设置" }).click();
      await page.getByRole("heading", { name: "车间资料" }).waitFor();
      const section = page.locator("section.business");
      const confirmedHere: string[] = [];

      // (a) A 补贴 of this month: a wrong amount is said first, then the check names who, what and why.
      const adjustments = section.locator('section[aria-labelledby="business-adjustments"]');
      const { month } = await business<{ month: string }>("adjustments");
      expect(await adjustments.getByLabel("月份").inputValue()).toBe(month);
      await adjustments.getByRole("button", { name: "记一笔补贴或扣款" }).click();
      const form = adjustments.getByRole("form", { name: "记一笔补贴或扣款" });
      await form.getByLabel("员工").selectOption(employeeId);
      await form.getByLabel("类型").selectOption("allowance");
      await form.getByLabel("金额（元）").fill("五十");
      await form.getByLabel("原因").fill("全勤奖");
      await form.getByRole("button", { name: "下一步：看看会改什么" }).click();
      await form.getByText("金额请填 0.01 到 100000 之间的数字").waitFor();
      await form.getByLabel("金额（元）").fill("50");
      await form.getByRole("button", { name: "下一步：看看会改什么" }).click();
      const added = await checkShown(page);
      expect(added).toContain(worker);
      expect(added).toContain("50.00");
      expect(added).toContain("全勤奖");
      await shot("adjustment-check");
      await noOverflow(page, viewport.width);
      confirmedHere.push(await decide(page, "确认"));
      const row = adjustments.locator(`li[data-employee-id="${employeeId}"]`);
      await row.locator("li[data-kind=allowance]", { hasText: "全勤奖" }).waitFor();
      expect(await row.textContent()).toContain("+¥50.00");
      const listed = (await business<{ adjustments: AdjustmentView[] }>(`adjustments?month=${month}`)).adjustments.filter(
        (a) => a.employee.id === employeeId,
      );
      expect(listed).toMatchObject([{ kind: "allowance", amount: { cents: 5000 }, reason: "全勤奖" }]);
      await shot("adjustments");
      await noOverflow(page, viewport.width);

      // Taken back: the check says so, and the month's list no longer has it.
      await row.getByRole("button", { name: "撤销" }).click();
      expect(await checkShown(page)).toContain("撤销补贴");
      confirmedHere.push(await decide(page, "确认"));
      await expect.poll(() => row.count()).toBe(0);
      const after = (await business<{ adjustments: AdjustmentView[] }>(`adjustments?month=${month}`)).adjustments;
      expect(after.filter((a) => a.employee.id === employeeId)).toEqual([]);

      // (b) An employee list as Excel saves a CSV (UTF-8 with a BOM): a title above the header, a new
      // person, a new phone for this test's employee, and a phone that is not one.
      const importPart = section.locator('section[aria-labelledby="business-import"]');
      const newcomer = `赵测${tag}`;
      const broken = `钱测${tag}`;
      const csvPath = join(files, `员工名单${viewport.width}.csv`);
      writeFileSync(
        csvPath,
        `\uFEFF员工名单,,,\r\n序号,姓名,工号,手机号\r\n1,${newcomer},,13900000001\r\n2,${worker},${employee?.employee_no},13900000002\r\n3,${broken},,电话待补\r\n`,
      );
      await importPart.getByLabel("导入什么").selectOption("employees");
      expect(await importPart.textContent()).toContain("表头要有「姓名」一列");
      await importPart.getByLabel("文件（.xlsx、.xls 或 .csv）").setInputFiles(csvPath);
      await importPart.getByRole("button", { name: "上传并检查" }).click();
      await checkShown(page);
      const report = importPart.locator(".business-report");
      expect(await report.locator("[data-report=add]").textContent()).toContain(newcomer);
      const changed = (await report.locator("[data-report=change]").textContent()) ?? "";
      expect(changed).toContain("13700000000");
      expect(changed).toContain("13900000002");
      const problem = report.locator("[data-report=problems] li");
      expect(await problem.count()).toBe(1);
      expect(await problem.getAttribute("data-row")).toBe("5");
      expect(await problem.getAttribute("data-column")).toBe("电话");
      expect(await problem.textContent()).toContain("第 5 行");
      await shot("import-employees-report");
      await noOverflow(page, viewport.width);
      confirmedHere.push(await decide(page, "确认"));
      const people = await employeesNow();
      expect(people.find((e) => e.name === newcomer)).toBeTruthy();
      expect(people.find((e) => e.name === worker)?.phone).toBe("13900000002");
      expect(people.find((e) => e.name === broken)).toBeUndefined();
      expect(await report.count()).toBe(0);

      // (c) A price list written by SheetJS: a new process, 锁边's price changed, a price that is not one.
      const workbook = XLSX.utils.book_new();
      const rows = (lockPrice: number) => [
        ["款号", "工序", "单价（元）"],
        [code, "钉扣", 0.3],
        [code, "锁边", lockPrice],
        [code, "打枣", "八毛"],
      ];
      XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet(rows(0.6)), "工价");
      const xlsxPath = join(files, `工价表${viewport.width}.xlsx`);
      writeFileSync(xlsxPath, XLSX.write(workbook, { type: "buffer", bookType: "xlsx" }));
      await importPart.getByLabel("导入什么").selectOption("prices");
      expect(await importPart.textContent()).toContain("表头要有「工序」和「单价」");
      expect(await importPart.getByLabel("新单价从哪天起").inputValue()).toMatch(/^\d{4}-\d\d-\d\d$/);
      await importPart.getByLabel("文件（.xlsx、.xls 或 .csv）").setInputFiles(xlsxPath);
      await importPart.getByRole("button", { name: "上传并检查" }).click();
      await checkShown(page);
      expect(await report.locator("[data-report=add]").textContent()).toContain("钉扣");
      const priceChange = (await report.locator("[data-report=change]").textContent()) ?? "";
      expect(priceChange).toContain("锁边");
      expect(priceChange).toContain("0.50");
      expect(priceChange).toContain("0.60");
      expect(await problem.count()).toBe(1);
      expect(await problem.getAttribute("data-sheet")).toBe("工价");
      expect(await problem.getAttribute("data-row")).toBe("4");
      expect(await problem.getAttribute("data-column")).toBe("单价");
      await shot("import-prices-report");
      await noOverflow(page, viewport.width);
      confirmedHere.push(await decide(page, "确认"));
      const style = await styleNow(code);
      expect(style?.processes.find((p) => p.name === "钉扣")?.unit_price.cents).toBe(30);
      expect(style?.processes.find((p) => p.name === "锁边")?.unit_price.cents).toBe(60);
      expect(style?.processes.find((p) => p.name === "打枣")).toBeUndefined();

      // (d) Another price list, 取消: nothing of it is written.
      const again = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(again, XLSX.utils.aoa_to_sheet(rows(0.9)), "工价");
      const againPath = join(files, `工价表又一版${viewport.width}.xlsx`);
      writeFileSync(againPath, XLSX.write(again, { type: "buffer", bookType: "xlsx" }));
      await importPart.getByLabel("文件（.xlsx、.xls 或 .csv）").setInputFiles(againPath);
      await importPart.getByRole("button", { name: "上传并检查" }).click();
      await checkShown(page);
      expect(await report.locator("[data-report=change]").textContent()).toContain("0.90");
      await decide(page, "取消");
      expect((await styleNow(code))?.processes.find((p) => p.name === "锁边")?.unit_price.cents).toBe(60);
      await shot("after");

      // Each yes given here is in the audit as a settings form's.
      const audit = await fetch(`${baseUrl}/api/audit?limit=100`, { headers: BOSS_KEY });
      const entries = ((await audit.json()) as { entries: { action_id: string; confirmed_via: string | null }[] }).entries;
      for (const id of confirmedHere) expect(entries.find((e) => e.action_id === id)?.confirmed_via).toBe("settings");

      // What this test added, taken away: its employees leave, its processes stop.
      for (const name of [worker, newcomer]) await written(page, { change: "employee_leave", employee: name });
      for (const name of ["锁边", "钉扣"]) await written(page, { change: "process_disable", style: code, process: name });
    });
  }
});
