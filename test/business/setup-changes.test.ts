import { describe, expect, it } from "vitest";
import { addDays } from "../../src/business/local-time.ts";
import { dbOf, testServices } from "../fixtures.ts";
import { BOSS, fails, OTHER_BOSS, ok, STAFF, shanghaiToday } from "./run.ts";

interface Pending {
  action_id: string;
  status: string;
  summary: string;
  preview: { label: string; value: string }[];
  ambiguities: { field: string }[];
}
interface Done {
  status: string;
  result?: Record<string, unknown>;
  error?: { code: string; message: string };
}

const db = () => dbOf("t-jinxiu");
const previewOf = (action: Pending) => Object.fromEntries(action.preview.map((f) => [f.label, f.value]));
const confirm = (action: Pending) => ok<Done>(BOSS, "confirm_action", { action_id: action.action_id });
const today = shanghaiToday();

async function audit(
  actionId: string,
): Promise<{ kind: string; values: { before: unknown; after: Record<string, unknown> }; summary: string }> {
  const row = await db()
    .prepare("SELECT kind, values_json, summary FROM business_audit WHERE action_id = ?1")
    .bind(actionId)
    .first<{ kind: string; values_json: string; summary: string }>();
  if (!row) throw new Error(`no audit entry for ${actionId}`);
  return { kind: row.kind, values: JSON.parse(row.values_json), summary: row.summary };
}

async function employeeNamed(name: string) {
  return db()
    .prepare("SELECT * FROM employees WHERE tenant_id = 't-jinxiu' AND name = ?1")
    .bind(name)
    .first<Record<string, unknown>>();
}

describe("employees", () => {
  it("adds 王强 with the next 工号 and his phone, only once confirmed, audited with before and after", async () => {
    const action = await ok<Pending>(BOSS, "prepare_business_change", {
      change: "employee_add",
      name: "王强",
      phone: "138 0013 8000",
    });
    expect(previewOf(action)).toMatchObject({ 姓名: "王强", 电话: "13800138000", 工号: "确认时自动生成（下一个是 008）" });
    expect(await employeeNamed("王强")).toBeNull();
    const done = await confirm(action);
    expect(done.result).toMatchObject({ name: "王强", employee_no: "008", phone: "13800138000", status: "active" });
    expect(await employeeNamed("王强")).toMatchObject({ employee_no: "008", status: "active", version: 1 });
    const entry = await audit(action.action_id);
    expect(entry).toMatchObject({ kind: "employee", summary: "新增员工：王强，电话 13800138000" });
    expect(entry.values).toEqual({
      before: null,
      after: { name: "王强", employee_no: "008", phone: "13800138000", status: "active" },
    });
  });

  it("refuses a 工号 someone has, at prepare and, if taken meanwhile, at confirm", async () => {
    expect(
      await fails(BOSS, "prepare_business_change", { change: "employee_add", name: "李四", employee_no: "001" }),
    ).toMatchObject({ code: "conflict" });
    const first = await ok<Pending>(BOSS, "prepare_business_change", {
      change: "employee_add",
      name: "李四",
      employee_no: "A-9",
    });
    const second = await ok<Pending>(BOSS, "prepare_business_change", {
      change: "employee_add",
      name: "李五",
      employee_no: "A-9",
    });
    expect((await confirm(first)).status).toBe("confirmed");
    const refused = await fails(BOSS, "confirm_action", { action_id: second.action_id });
    expect(refused).toMatchObject({ code: "action_stale" });
    expect(refused.message).toContain("工号 A-9 已经给了 李四");
  });

  it("edits a phone with old and new side by side, and refuses a change prepared against a record changed meanwhile, saying what changed", async () => {
    const first = await ok<Pending>(BOSS, "prepare_business_change", {
      change: "employee_edit",
      employee: "王强",
      phone: "13900139000",
    });
    expect(previewOf(first)).toMatchObject({ 员工: "王强（工号 008）", 电话: "13800138000 → 13900139000" });
    const second = await ok<Pending>(BOSS, "prepare_business_change", {
      change: "employee_edit",
      employee: "王强",
      name: "王小强",
    });
    expect((await confirm(first)).status).toBe("confirmed");
    const refused = await fails(BOSS, "confirm_action", { action_id: second.action_id });
    expect(refused).toMatchObject({ code: "action_stale" });
    expect(refused.message).toBe(
      "准备之后，王强（工号 008）被改过了（电话：13800138000 → 13900139000）。这次没有写入，请按现在的资料重新准备。",
    );
    expect(await employeeNamed("王强")).toMatchObject({ phone: "13900139000", version: 2 });
  });

  it("marks someone as left (their records and login link stay) and takes them back", async () => {
    const records = await db()
      .prepare("SELECT COUNT(*) AS n FROM piece_records WHERE employee_id = 'e-jx-lijuan'")
      .first<{ n: number }>();
    const leave = await ok<Pending>(BOSS, "prepare_business_change", { change: "employee_leave", employee: "李娟" });
    expect(previewOf(leave)).toMatchObject({ 状态: "在职 → 已离职", 离职日期: `空 → ${today}` });
    await confirm(leave);
    expect(await employeeNamed("李娟")).toMatchObject({ status: "left", left_on: today, person_id: "u-staff" });
    expect(
      await db().prepare("SELECT COUNT(*) AS n FROM piece_records WHERE employee_id = 'e-jx-lijuan'").first<{ n: number }>(),
    ).toEqual(records);
    // She still reads her own records, and records no new pieces.
    expect(await ok(STAFF, "query_payroll", {})).toMatchObject({ payslips: [{ employee: { name: "李娟" } }] });
    expect(await fails(STAFF, "prepare_piece_record", { process: "上袖子", quantity: 1 })).toMatchObject({
      code: "unprocessable",
    });
    expect(await fails(BOSS, "prepare_business_change", { change: "employee_leave", employee: "李娟" })).toMatchObject({
      code: "unprocessable",
    });
    await confirm(await ok<Pending>(BOSS, "prepare_business_change", { change: "employee_rejoin", employee: "李娟" }));
    expect(await employeeNamed("李娟")).toMatchObject({ status: "active", left_on: null });
  });

  it("is a boss's: staff have no such tool, and another workshop's employees are unknown names", async () => {
    expect(await fails(STAFF, "prepare_business_change", { change: "employee_add", name: "x" })).toMatchObject({
      code: "forbidden",
    });
    expect(
      await fails(OTHER_BOSS, "prepare_business_change", { change: "employee_edit", employee: "e-jx-zhangsan", phone: "1" }),
    ).toMatchObject({
      code: "unknown_name",
    });
  });
});

describe("styles and processes", () => {
  it("adds a style and a process of it with its first price; a name is its style's one", async () => {
    await confirm(await ok<Pending>(BOSS, "prepare_business_change", { change: "style_add", code: "C03", name: "童装T恤" }));
    const add = await ok<Pending>(BOSS, "prepare_business_change", {
      change: "process_add",
      style: "C03",
      name: "锁边",
      unit_price: 0.25,
    });
    expect(previewOf(add)).toMatchObject({ 款式: "C03 童装T恤", 工序: "锁边", 单价: "0.25 元/件" });
    await confirm(add);
    expect(
      await fails(BOSS, "prepare_business_change", { change: "process_add", style: "C03", name: "锁边", unit_price: 1 }),
    ).toMatchObject({ code: "conflict" });
    expect(await fails(BOSS, "prepare_business_change", { change: "style_add", code: "A01", name: "x" })).toMatchObject({
      code: "conflict",
    });
    const { processes } = await ok<{ processes: { name: string; unit_price: { yuan: string } }[] }>(BOSS, "query_processes", {
      style: "C03",
    });
    expect(processes).toEqual([expect.objectContaining({ name: "锁边", unit_price: { cents: 25, yuan: "0.25" } })]);
  });

  it("renames and disables a process, which then takes no piece records; its old ones stay", async () => {
    const rename = await ok<Pending>(BOSS, "prepare_business_change", {
      change: "process_edit",
      style: "C03",
      process: "锁边",
      name: "拷边",
    });
    expect(previewOf(rename)).toMatchObject({ 工序名称: "锁边 → 拷边" });
    await confirm(rename);
    const disable = await ok<Pending>(BOSS, "prepare_business_change", {
      change: "process_disable",
      style: "B02",
      process: "锁边",
    });
    expect(previewOf(disable)).toMatchObject({ 状态: "启用 → 停用" });
    await confirm(disable);
    expect(
      await fails(BOSS, "prepare_piece_record", { employee: "张敏", process: "锁边", quantity: 1, order: "o-jx-2" }),
    ).toMatchObject({
      code: "unprocessable",
    });
    await confirm(
      await ok<Pending>(BOSS, "prepare_business_change", { change: "process_enable", style: "B02", process: "锁边" }),
    );
  });

  it("asks which process when several styles have the name", async () => {
    const action = await ok<Pending>(BOSS, "prepare_business_change", { change: "price", process: "裁剪", unit_price: 0.5 });
    expect(action.ambiguities.map((a) => a.field)).toEqual(["process"]);
    expect(await fails(BOSS, "confirm_action", { action_id: action.action_id })).toMatchObject({
      code: "action_not_confirmable",
    });
  });
});

describe("orders", () => {
  it("moves an order only along its steps: 生产中 → 已完成, and says what is left undone", async () => {
    const done = await ok<Pending>(BOSS, "prepare_business_change", { change: "order", order: "o-jx-1", status: "completed" });
    expect(previewOf(done).状态).toBe("生产中 → 已完成");
    expect(previewOf(done).提示).toMatch(/^还有工序没登记够 6000 件/);
    expect(done.summary).toMatch(/^订单 \d{4}-001：生产中 → 已完成$/);
    await ok(BOSS, "cancel_action", { action_id: done.action_id });
    expect(await fails(BOSS, "prepare_business_change", { change: "order", order: "o-jx-4", status: "completed" })).toMatchObject(
      { code: "unprocessable" },
    );
    expect(
      await fails(BOSS, "prepare_business_change", { change: "order", order: "o-jx-3", status: "in_production" }),
    ).toMatchObject({ code: "unprocessable" });
  });

  it("cancels with a reason only, and then takes no piece records", async () => {
    expect(await fails(BOSS, "prepare_business_change", { change: "order", order: "o-jx-4", status: "cancelled" })).toMatchObject(
      { code: "invalid_input" },
    );
    const cancel = await ok<Pending>(BOSS, "prepare_business_change", {
      change: "order",
      order: "o-jx-4",
      status: "cancelled",
      reason: "客户不要了",
    });
    expect(previewOf(cancel)).toMatchObject({ 状态: "待生产 → 已取消", 取消原因: "空 → 客户不要了" });
    await confirm(cancel);
    expect(await db().prepare("SELECT status, cancel_reason, version FROM orders WHERE id = 'o-jx-4'").first()).toEqual({
      status: "cancelled",
      cancel_reason: "客户不要了",
      version: 2,
    });
    expect(
      await fails(BOSS, "prepare_piece_record", { employee: "张敏", process: "锁边", quantity: 1, order: "o-jx-4" }),
    ).toMatchObject({
      code: "unprocessable",
    });
  });

  it("changes an open order's quantity, due date and note, old and new side by side; refuses a due date past", async () => {
    const due = addDays(today, 40);
    const change = await ok<Pending>(BOSS, "prepare_business_change", {
      change: "order",
      order: "o-jx-2",
      quantity: 9000,
      due_date: due,
      note: "加急",
    });
    expect(previewOf(change)).toMatchObject({
      数量: "8000 件 → 9000 件",
      交货日期: expect.stringContaining(`→ ${due}`),
      备注: "碎花雪纺 → 加急",
    });
    await confirm(change);
    expect(
      await fails(BOSS, "prepare_business_change", { change: "order", order: "o-jx-2", due_date: addDays(today, -1) }),
    ).toMatchObject({ code: "invalid_input" });
  });

  it("refuses a status change prepared before a piece record moved the order on", async () => {
    await confirm(
      await ok<Pending>(BOSS, "prepare_order", { customer: "矩阵", style: "A01", quantity: 10, due_date: addDays(today, 9) }),
    );
    const order = await db()
      .prepare("SELECT id, order_no FROM orders WHERE customer = '矩阵'")
      .first<{ id: string; order_no: string }>();
    const cancel = await ok<Pending>(BOSS, "prepare_business_change", {
      change: "order",
      order: order?.order_no,
      status: "cancelled",
      reason: "重复下单",
    });
    await confirm(
      await ok<Pending>(BOSS, "prepare_piece_record", {
        employee: "张三",
        process: "上领子",
        quantity: 1,
        order: order?.order_no,
      }),
    );
    const refused = await fails(BOSS, "confirm_action", { action_id: cancel.action_id });
    expect(refused.message).toContain("状态：待生产 → 生产中");
  });
});

describe("补贴 and 扣款", () => {
  it("adds 50 元 全勤奖 for 李娟 this month, with her net pay before and after, and takes it back", async () => {
    const month = today.slice(0, 7);
    const before = await ok<{ payslips: { net_pay: { cents: number } }[] }>(BOSS, "query_payroll", { employee: "李娟", month });
    const add = await ok<Pending>(BOSS, "prepare_business_change", {
      change: "adjustment_add",
      employee: "李娟",
      kind: "allowance",
      amount: 50,
      reason: "全勤奖",
    });
    const net = before.payslips[0]?.net_pay.cents ?? 0;
    expect(previewOf(add)).toMatchObject({ 类型: "补贴", 金额: "50.00 元", 月份: `${month}（本月）`, 原因: "全勤奖" });
    expect(previewOf(add).当月实发).toBe(`${(net / 100).toFixed(2)} → ${((net + 5000) / 100).toFixed(2)} 元`);
    const done = await confirm(add);
    expect(done.result).toMatchObject({ kind: "allowance", amount: { cents: 5000, yuan: "50.00" }, month, reason: "全勤奖" });
    const after = await ok<{ payslips: { net_pay: { cents: number }; adjustments: { id: string; reason: string }[] }[] }>(
      BOSS,
      "query_payroll",
      {
        employee: "李娟",
        month,
      },
    );
    expect(after.payslips[0]?.net_pay.cents).toBe(net + 5000);
    const bonus = after.payslips[0]?.adjustments.find(
      (a) => a.reason === "全勤奖" && a.id.startsWith("adj-") && !a.id.includes("jx"),
    );
    const remove = await ok<Pending>(BOSS, "prepare_business_change", { change: "adjustment_remove", adjustment: bonus?.id });
    expect(previewOf(remove).当月实发).toBe(`${((net + 5000) / 100).toFixed(2)} → ${(net / 100).toFixed(2)} 元`);
    await confirm(remove);
    const again = await ok<{ payslips: { net_pay: { cents: number } }[] }>(BOSS, "query_payroll", { employee: "李娟", month });
    expect(again.payslips[0]?.net_pay.cents).toBe(net);
    expect(await fails(BOSS, "prepare_business_change", { change: "adjustment_remove", adjustment: bonus?.id })).toMatchObject({
      code: "unprocessable",
    });
  });

  it("takes a 扣款 without a reason, and refuses an amount of nothing or another workshop's adjustment", async () => {
    const action = await ok<Pending>(BOSS, "prepare_business_change", {
      change: "adjustment_add",
      employee: "张敏",
      kind: "deduction",
      amount: 20,
    });
    expect(previewOf(action)).toMatchObject({ 类型: "扣款", 金额: "20.00 元", 原因: "未说明" });
    expect(
      await fails(BOSS, "prepare_business_change", { change: "adjustment_add", employee: "张敏", kind: "deduction", amount: 0 }),
    ).toMatchObject({ code: "invalid_input" });
    const other = await dbOf("t-other")
      .prepare("SELECT id FROM payroll_adjustments WHERE tenant_id = 't-other' LIMIT 1")
      .first<{ id: string }>();
    if (other)
      expect(await fails(BOSS, "prepare_business_change", { change: "adjustment_remove", adjustment: other.id })).toMatchObject({
        code: "not_found",
      });
  });
});

describe("the workshop's settings", () => {
  it("renames the workshop in its record and the directory, and sets its time zone, with today in each zone", async () => {
    const action = await ok<Pending>(BOSS, "prepare_business_change", {
      change: "workshop",
      name: "锦绣制衣（新）",
      time_zone: "asia/tokyo",
    });
    expect(previewOf(action)).toMatchObject({ 名称: "锦绣制衣 → 锦绣制衣（新）", 时区: "Asia/Shanghai → Asia/Tokyo" });
    expect(previewOf(action).今天).toMatch(/^\d{4}-\d\d-\d\d → \d{4}-\d\d-\d\d$/);
    await confirm(action);
    expect(await db().prepare("SELECT name, time_zone FROM tenants WHERE id = 't-jinxiu'").first()).toEqual({
      name: "锦绣制衣（新）",
      time_zone: "Asia/Tokyo",
    });
    const { env } = await import("cloudflare:test");
    expect(await env.DB.prepare("SELECT name FROM tenants WHERE id = 't-jinxiu'").first()).toEqual({ name: "锦绣制衣（新）" });
    expect(await fails(BOSS, "prepare_business_change", { change: "workshop", time_zone: "Mars/Olympus" })).toMatchObject({
      code: "invalid_input",
    });
    await confirm(
      await ok<Pending>(BOSS, "prepare_business_change", { change: "workshop", name: "锦绣制衣", time_zone: "Asia/Shanghai" }),
    );
    expect(testServices().business.tenantId).toBe("t-jinxiu");
  });
});
