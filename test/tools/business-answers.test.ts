import { describe, expect, it } from "vitest";
import { addMonths } from "../../src/business/local-time.ts";
import { WEFT_TOOLS } from "../../src/tools/registry.ts";
import { BOSS, fails, ok, STAFF, shanghaiToday } from "../business/run.ts";
import { dbOf } from "../fixtures.ts";

type Money = { cents: number; yuan: string };
interface Applied {
  summary: string;
  period: { name: string; of?: string; from: string | null; to: string | null; in_progress: boolean };
  filters: Record<string, string>;
  assumptions: string[];
  next_cursor: string | null;
}
interface Pieces extends Applied {
  totals: { records: number; pieces: number; amount: Money; groups?: number };
  groups?: { label: string; pieces: number; amount: Money; records: number }[];
  records?: { id: string; quantity: number; amount: Money; work_date: string }[];
}
interface Pay extends Applied {
  month: string;
  totals: { employees: number; net_pay: Money };
  payslips: { employee: { name: string }; pieces: number; net_pay: Money; lines?: unknown[] }[];
}
interface Orders extends Applied {
  orders: {
    order_no: string;
    status: string;
    quantity: number;
    due_date: string;
    days_left: number | null;
    overdue: boolean;
    remaining_pieces: number;
    progress: { processes: Record<string, number>; percent: number };
  }[];
  totals: { orders: number };
}

const firstSentence = (summary: string) => summary.split("。")[0] ?? "";

describe("every business answer names what it looked at", () => {
  const today = shanghaiToday();
  const month = today.slice(0, 7);

  // Each business tool with what it was asked, the period it names and words its first sentence holds.
  const CASES: [tool: string, input: Record<string, unknown>, period: string, words: string[]][] = [
    ["query_piece_records", { employee: "张三", period: "this_month" }, "this_month", ["张三", "本月", `${month}-01`, "进行中"]],
    ["query_piece_records", { process: "领子" }, "all", ["上领子", "全部记录"]],
    ["query_payroll", { employee: "张三", period: "last_month" }, "last_month", ["张三", "上个月", "实发"]],
    ["query_payroll", {}, "this_month", ["全车间", "本月", "进行中", "实发合计"]],
    ["query_orders", { status: "还没完成" }, "all", ["未完成", "待生产", "生产中", "不限日期"]],
    ["query_orders", { due_from: `${month}-01`, due_to: `${month}-28` }, "dates", ["全部", "交期", `${month}-01`]],
    ["query_processes", { style: "A01" }, "current", ["A01 男式衬衫", "当前单价"]],
    ["query_employees", { status: "active" }, "current", ["在职", "当前"]],
  ];

  it.each(CASES)("%s %j says its period and filters first", async (tool, input, period, words) => {
    const result = await ok<Applied>(BOSS, tool, input);
    expect(result.period.name).toBe(period);
    expect(result.summary.startsWith(firstSentence(result.summary))).toBe(true);
    for (const word of words) expect(firstSentence(result.summary), word).toContain(word);
    for (const [field, value] of Object.entries(result.filters)) {
      expect(input, field).toHaveProperty(field);
      expect(result.summary).toContain(value);
    }
  });

  it("says what it read into the question: a name read as another, no period, staff's own records", async () => {
    const collar = await ok<Pieces>(BOSS, "query_piece_records", { process: "领子" });
    expect(collar.filters).toEqual({ process: "上领子 (A01 男式衬衫)" });
    expect(collar.assumptions).toEqual(["把“领子”当作 上领子 (A01 男式衬衫)", "没有说时间，按全部记录统计"]);
    expect(collar.period).toEqual({ name: "all", of: "work_date", from: null, to: null, in_progress: false });
    const own = await ok<Pieces>(STAFF, "query_piece_records", { period: "today" });
    expect(own.filters.employee).toContain("李娟");
    expect(own.assumptions).toContain("员工只能看自己的记录");
    const pay = await ok<Pay>(BOSS, "query_payroll", {});
    expect(pay.assumptions).toContain("没有说月份，按本月计算");
    const words = await ok<Orders>(BOSS, "query_orders", { status: "没做完" });
    expect(words.assumptions).toEqual(["把“没做完”当作未完成（待生产、生产中）"]);
  });
});

describe("asking query_piece_records for less", () => {
  it("answers who made the most with groups only, largest first, cut at top, and says who in the summary", async () => {
    const all = await ok<Pieces>(BOSS, "query_piece_records", { period: "this_month", group_by: "employee" });
    expect(all.records).toBeUndefined();
    const pieces = all.groups?.map((g) => g.pieces) ?? [];
    expect(pieces).toEqual([...pieces].sort((a, b) => b - a));
    expect(all.totals.groups).toBe(all.groups?.length);
    const top = await ok<Pieces>(BOSS, "query_piece_records", { period: "this_month", group_by: "employee", top: 1 });
    expect(top.groups).toHaveLength(1);
    expect(top.groups?.[0]).toEqual(all.groups?.[0]);
    expect(top.next_cursor).toBeNull();
    expect(top.summary).toContain(`${top.groups?.[0]?.label} ${top.groups?.[0]?.pieces.toLocaleString("en")} 件`);
    const byAmount = await ok<Pieces>(BOSS, "query_piece_records", {
      period: "this_month",
      group_by: "process",
      sort_by: "amount",
    });
    const amounts = byAmount.groups?.map((g) => g.amount.cents) ?? [];
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
  });

  it("pages groups with a cursor, each once, and refuses the cursor with another sort", async () => {
    const seen: string[] = [];
    let cursor: string | null | undefined;
    let pages = 0;
    do {
      const page: Pieces = await ok<Pieces>(BOSS, "query_piece_records", {
        group_by: "date",
        sort_by: "date",
        limit: 7,
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...(page.groups ?? []).map((g) => g.label));
      cursor = page.next_cursor;
      pages++;
      if (cursor && pages === 1) {
        const other = await fails(BOSS, "query_piece_records", { group_by: "date", sort_by: "pieces", cursor });
        expect(other.code).toBe("invalid_input");
      }
    } while (cursor);
    const { n } = (await dbOf("t-jinxiu")
      .prepare("SELECT COUNT(DISTINCT work_date) AS n FROM piece_records WHERE tenant_id = 't-jinxiu'")
      .first<{ n: number }>()) ?? { n: 0 };
    expect(seen).toHaveLength(n);
    expect(seen).toEqual([...seen].sort());
  });

  it("sorts records by pieces or amount, pages them by the same sort, and refuses a sort only groups have", async () => {
    const first = await ok<Pieces>(BOSS, "query_piece_records", { employee: "张三", sort_by: "pieces", limit: 5 });
    const next = await ok<Pieces>(BOSS, "query_piece_records", {
      employee: "张三",
      sort_by: "pieces",
      limit: 5,
      cursor: first.next_cursor,
    });
    const quantities = [...(first.records ?? []), ...(next.records ?? [])].map((r) => r.quantity);
    expect(quantities).toEqual([...quantities].sort((a, b) => b - a));
    const ids = [...(first.records ?? []), ...(next.records ?? [])].map((r) => r.id);
    expect(new Set(ids).size).toBe(10);
    const top = await ok<Pieces>(BOSS, "query_piece_records", { sort_by: "amount", top: 3 });
    expect(top.records).toHaveLength(3);
    expect(top.next_cursor).toBeNull();
    expect((await fails(BOSS, "query_piece_records", { sort_by: "name" })).code).toBe("invalid_input");
  });
});

describe("asking query_payroll for less, and its months", () => {
  it("takes last_month like piece records, and marks this month as in progress", async () => {
    const today = shanghaiToday();
    const last = await ok<Pay>(BOSS, "query_payroll", { period: "last_month" });
    expect(last.month).toBe(addMonths(today, -1));
    expect(last.period).toMatchObject({ name: "last_month", of: "month", in_progress: false });
    const same = await ok<Pieces>(BOSS, "query_piece_records", { period: "last_month" });
    expect([same.period.from, same.period.to]).toEqual([last.period.from, last.period.to]);
    const now = await ok<Pay>(BOSS, "query_payroll", { month: today.slice(0, 7) });
    expect(now.period).toMatchObject({ name: "month", in_progress: true });
    expect(now.summary).toContain("本月");
    expect(now.summary).toContain("进行中");
    expect((await fails(BOSS, "query_payroll", { period: "last_month", month: "2026-03" })).code).toBe("invalid_input");
  });

  it("ranks by net pay with top, and leaves the lines out unless asked for", async () => {
    const all = await ok<Pay>(BOSS, "query_payroll", { limit: 100 });
    expect(all.payslips.every((slip) => slip.lines === undefined)).toBe(true);
    const richest = Math.max(...all.payslips.map((slip) => slip.net_pay.cents));
    const top = await ok<Pay>(BOSS, "query_payroll", { sort_by: "net_pay", top: 1 });
    expect(top.payslips).toHaveLength(1);
    expect(top.payslips[0]?.net_pay.cents).toBe(richest);
    expect(top.totals.employees).toBe(all.totals.employees);
    const lines = await ok<Pay>(BOSS, "query_payroll", { employee: "张三", with_lines: true });
    expect(lines.payslips[0]?.lines?.length).toBeGreaterThan(0);
  });
});

describe("what query_orders works out for each order", () => {
  it("gives days left, overdue and the pieces still to make, from the workshop's today", async () => {
    const today = shanghaiToday();
    const result = await ok<Orders>(BOSS, "query_orders", { limit: 100 });
    for (const order of result.orders) {
      const open = order.status === "pending" || order.status === "in_production";
      const days = Math.round((Date.parse(order.due_date) - Date.parse(today)) / 86_400_000);
      expect(order.days_left, order.order_no).toBe(open ? days : null);
      expect(order.overdue, order.order_no).toBe(open && days < 0);
      const slowest = Math.min(...Object.values(order.progress.processes));
      expect(order.remaining_pieces, order.order_no).toBe(Math.max(0, order.quantity - slowest));
    }
  });

  it("reads the words people use for open orders as the open statuses, and refuses words it cannot read", async () => {
    const open = await ok<Orders>(BOSS, "query_orders", { status: "open", limit: 100 });
    for (const words of ["还没完成", "没做完", "在做的", "未完成"]) {
      const read = await ok<Orders>(BOSS, "query_orders", { status: words, limit: 100 });
      expect(
        read.orders.map((o) => o.order_no),
        words,
      ).toEqual(open.orders.map((o) => o.order_no));
      expect(read.filters.status).toBe("未完成（待生产、生产中）");
    }
    expect(open.orders.every((o) => o.status === "pending" || o.status === "in_production")).toBe(true);
    const done = await ok<Orders>(BOSS, "query_orders", { status: "已完成" });
    expect(done.orders.every((o) => o.status === "completed")).toBe(true);
    expect((await fails(BOSS, "query_orders", { status: "明天" })).code).toBe("invalid_input");
  });
});

describe("the size a list tool's description promises", () => {
  // The widest default answers the demo gives: every record, every payslip, every order.
  it.each([
    ["query_piece_records", {}],
    ["query_piece_records", { period: "this_month", group_by: "date" }],
    ["query_payroll", {}],
    ["query_orders", {}],
  ])("keeps %s %j within it by default", async (name, input) => {
    const tool = WEFT_TOOLS.find((t) => t.name === name);
    const stated = /At most about ([\d,]+) characters by default/.exec(tool?.description ?? "")?.[1];
    expect(stated, `${name} states its size`).toBeDefined();
    const result = await ok<Applied>(BOSS, name, input);
    expect(JSON.stringify(result).length).toBeLessThanOrEqual(Number(stated?.replace(",", "")));
  });
});
