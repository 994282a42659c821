import * as XLSX from "@e965/xlsx";
import { describe, expect, it } from "vitest";
import type { ImportReport, PendingAction } from "../../src/shapes.ts";
import { browserCall, signIn } from "../chat/sign-in.ts";
import { dbOf, keys, logins } from "../fixtures.ts";
import { call, callJson } from "../helpers.ts";

// Settings → 车间资料 over its routes: what a boss reads, a form sent and confirmed there (audit
// path `settings`), If-Match, the role matrix, and imports of real CSV and Excel files.

const json = { "Content-Type": "application/json" };
const db = () => dbOf("t-jinxiu");

async function boss(): Promise<string> {
  return signIn(logins.boss.username, logins.boss.password);
}

async function confirmInSettings(cookie: string, actionId: string): Promise<Response> {
  return browserCall(`/api/actions/${actionId}/confirm`, cookie, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ via: "settings" }),
  });
}

function upload(path: string, name: string, bytes: Uint8Array | string, type: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.append("file", new File([bytes], name, { type }));
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return call(path, { method: "POST", key: keys.boss, body: form });
}

describe("/api/business, as Settings → 车间资料 uses it", () => {
  it("lists employees, styles with each price's history, open orders, a month's adjustments and the workshop, each with its version", async () => {
    const employees = await callJson("/api/business/employees", { key: keys.boss });
    expect(employees.status).toBe(200);
    expect(employees.body.employees).toContainEqual(
      expect.objectContaining({ name: "张三", status: "active", version: expect.any(Number) }),
    );
    const styles = await callJson("/api/business/styles", { key: keys.boss });
    const a01 = styles.body.styles.find((s: { code: string }) => s.code === "A01");
    const collar = a01.processes.find((p: { name: string }) => p.name === "上领子");
    expect(collar.prices[0]).toMatchObject({ unit_price: { yuan: "0.80" }, from: null });
    const orders = await callJson("/api/business/orders", { key: keys.boss });
    expect(orders.body.orders.every((o: { status: string }) => ["pending", "in_production"].includes(o.status))).toBe(true);
    const adjustments = await callJson("/api/business/adjustments", { key: keys.boss });
    expect(adjustments.body.month).toMatch(/^\d{4}-\d\d$/);
    const workshop = await callJson("/api/business/workshop", { key: keys.boss });
    expect(workshop.body).toMatchObject({ name: "锦绣制衣", time_zone: "Asia/Shanghai", version: expect.any(Number) });
  });

  it("takes a form a boss sends as a change, and their yes in settings writes it, audited with path settings", async () => {
    const cookie = await boss();
    const sent = await browserCall("/api/business/changes", cookie, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ change: "employee_add", name: "赵敏", phone: "139 0000 1111" }),
    });
    expect(sent.status).toBe(201);
    const action = (await sent.json()) as PendingAction;
    expect(await db().prepare("SELECT 1 FROM employees WHERE name = '赵敏'").first()).toBeNull();
    expect((await confirmInSettings(cookie, action.action_id)).status).toBe(200);
    const row = await db().prepare("SELECT phone FROM employees WHERE name = '赵敏'").first();
    expect(row).toEqual({ phone: "13900001111" });
    const audit = await db()
      .prepare("SELECT confirmed_via FROM business_audit WHERE action_id = ?1")
      .bind(action.action_id)
      .first();
    expect(audit).toEqual({ confirmed_via: "settings" });
  });

  it("refuses at once a change sent with an If-Match the record has moved past, with the record as it is now", async () => {
    const listed = await callJson("/api/business/employees", { key: keys.boss });
    const zhang = listed.body.employees.find((e: { name: string }) => e.name === "张三");
    const stale = await callJson("/api/business/changes", {
      key: keys.boss,
      method: "POST",
      headers: { ...json, "If-Match": `"${zhang.version + 5}"` },
      body: JSON.stringify({ change: "employee_edit", employee: zhang.id, phone: "13700000000" }),
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.details.current).toMatchObject({ version: zhang.version });
  });

  it("is a boss's: staff and another workshop get no business data and may prepare no change", async () => {
    for (const path of [
      "/api/business/employees",
      "/api/business/styles",
      "/api/business/orders",
      "/api/business/adjustments",
      "/api/business/workshop",
    ]) {
      expect((await call(path, { key: keys.staff })).status, path).toBe(403);
      expect((await call(path)).status, path).toBe(401);
    }
    const change = { method: "POST", headers: json, body: JSON.stringify({ change: "workshop", name: "x" }) };
    expect((await call("/api/business/changes", { ...change, key: keys.staff })).status).toBe(403);
    const other = await callJson("/api/business/changes", {
      ...change,
      key: keys.otherBoss,
      body: JSON.stringify({ change: "employee_edit", employee: "e-jx-zhangsan", phone: "1" }),
    });
    expect(other.status).toBe(404);
    const form = new FormData();
    form.append("file", new File(["姓名\n王五\n"], "员工.csv", { type: "text/csv" }));
    expect((await call("/api/business/import/employees", { method: "POST", key: keys.staff, body: form })).status).toBe(403);
  });

  it("refuses a body with unknown fields or a bad value as 400, writing nothing", async () => {
    const unknown = await call("/api/business/changes", {
      key: keys.boss,
      method: "POST",
      headers: json,
      body: JSON.stringify({ change: "employee_add", name: "x", salary: 1 }),
    });
    expect(unknown.status).toBe(400);
    const price = await call("/api/business/changes", {
      key: keys.boss,
      method: "POST",
      headers: json,
      body: JSON.stringify({ change: "price", process: "上领子", style: "A01", unit_price: 0.805 }),
    });
    expect(price.status).toBe(400);
  });
});

describe("imports", () => {
  it("previews an employee list from a CSV with rows to add, a row that changes and rows with problems by row and column, and writes it on yes", async () => {
    const csv = "员工名单\n序号,姓名,工号,手机号\n1,孙丽,,13811112222\n2,张三,001,13000000009\n3,,,13900000000\n4,周七,A B,\n";
    const res = await upload("/api/business/import/employees", "员工名单.csv", csv, "text/csv");
    expect(res.status).toBe(201);
    const { action, report } = (await res.json()) as { action: PendingAction; report: ImportReport };
    expect(report.add.map((a) => a.text).join()).toContain("孙丽");
    expect(report.change.map((c) => c.row)).toEqual([4]);
    expect(report.problems.map((p) => [p.row, p.column])).toEqual(
      expect.arrayContaining([
        [5, "姓名"],
        [6, "工号"],
      ]),
    );
    expect(await db().prepare("SELECT 1 FROM employees WHERE name = '孙丽'").first()).toBeNull();
    expect((await confirmInSettings(await boss(), action.action_id)).status).toBe(200);
    expect(await db().prepare("SELECT phone FROM employees WHERE name = '孙丽'").first()).toEqual({ phone: "13811112222" });
    expect(await db().prepare("SELECT phone FROM employees WHERE id = 'e-jx-zhangsan'").first()).toEqual({
      phone: "13000000009",
    });
  });

  it("previews a price list from an Excel file made by SheetJS (a new style and process, a changed price, a bad price) and writes it from a day", async () => {
    const sheet = XLSX.utils.aoa_to_sheet([
      ["2026 工价表"],
      ["款号", "款式", "工序", "单价（元）"],
      ["D09", "儿童外套", "上拉链", "1.20"],
      ["", "", "钉扣", "0.3"],
      ["A01", "男式衬衫", "上领子", "0.95"],
      ["A01", "男式衬衫", "锁边", "abc"],
    ]);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, "工价");
    const bytes = new Uint8Array(XLSX.write(book, { type: "array", bookType: "xlsx" }) as ArrayBuffer);
    const res = await upload(
      "/api/business/import/prices",
      "工价表.xlsx",
      bytes,
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    expect(res.status).toBe(201);
    const { action, report } = (await res.json()) as { action: PendingAction; report: ImportReport };
    expect(report.add.map((a) => a.text).join()).toContain("上拉链");
    expect(report.change).toContainEqual(
      expect.objectContaining({ row: 5, before: expect.stringContaining("0.80"), after: expect.stringContaining("0.95") }),
    );
    expect(report.problems).toContainEqual(expect.objectContaining({ row: 6, column: "单价" }));
    expect((await confirmInSettings(await boss(), action.action_id)).status).toBe(200);
    const added = await db()
      .prepare(
        "SELECT p.unit_price_cents FROM processes p JOIN styles s ON s.id = p.style_id WHERE s.code = 'D09' AND p.name = '钉扣'",
      )
      .first();
    expect(added).toEqual({ unit_price_cents: 30 });
  });

  it("writes nothing of an import whose rows changed after it was read", async () => {
    const csv = "姓名,工号,手机号\n钱八,,13822223333\n李娟,002,13000000077\n";
    const res = await upload("/api/business/import/employees", "员工名单.csv", csv, "text/csv");
    const { action } = (await res.json()) as { action: PendingAction };
    // 李娟 changed meanwhile, in the settings.
    const edit = await callJson("/api/business/changes", {
      key: keys.boss,
      method: "POST",
      headers: json,
      body: JSON.stringify({ change: "employee_edit", employee: "李娟", phone: "13000000088" }),
    });
    expect((await confirmInSettings(await boss(), edit.body.action_id)).status).toBe(200);
    const late = await confirmInSettings(await boss(), action.action_id);
    expect(late.status).toBe(409);
    expect(await db().prepare("SELECT 1 FROM employees WHERE name = '钱八'").first()).toBeNull();
    expect(await db().prepare("SELECT phone FROM employees WHERE name = '李娟'").first()).toEqual({ phone: "13000000088" });
  });

  it("refuses a file that is not a sheet, 415, and a form without a file, 400", async () => {
    expect((await upload("/api/business/import/prices", "notes.txt", "hello", "text/plain")).status).toBe(415);
    expect((await call("/api/business/import/prices", { method: "POST", key: keys.boss, body: new FormData() })).status).toBe(
      400,
    );
  });
});
