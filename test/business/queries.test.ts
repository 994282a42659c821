import { describe, expect, it } from "vitest";
import { dbOf } from "../fixtures.ts";
import { ADMIN, BOSS, fails, OTHER_BOSS, ok, STAFF, shanghaiToday } from "./run.ts";

type Money = { cents: number; yuan: string };
interface Records {
  summary: string;
  period: { name: string; from: string | null; to: string | null; in_progress: boolean };
  filters: Record<string, string>;
  assumptions: string[];
  records: {
    id: string;
    work_date: string;
    employee: { id: string; name: string };
    process: { name: string };
    quantity: number;
    amount: Money;
  }[];
  totals: { records: number; pieces: number; amount: Money; groups?: number };
  groups?: { key: string; label: string; pieces: number; amount: Money }[];
  next_cursor: string | null;
  scope: string;
  today: string;
}

async function sql<T>(query: string, ...params: (string | number)[]): Promise<T> {
  return (await dbOf("t-jinxiu")
    .prepare(query)
    .bind(...params)
    .first<T>()) as T;
}

describe("query_piece_records", () => {
  it("answers how many pieces 张三 did this month, with totals over all his records", async () => {
    const today = shanghaiToday();
    const month = today.slice(0, 7);
    const expected = await sql<{ n: number; pieces: number; cents: number }>(
      "SELECT COUNT(*) AS n, SUM(quantity) AS pieces, SUM(quantity * unit_price_cents) AS cents FROM piece_records WHERE employee_id = 'e-jx-zhangsan' AND work_date BETWEEN ?1 AND ?2",
      `${month}-01`,
      `${month}-31`,
    );
    const result = await ok<Records>(BOSS, "query_piece_records", { employee: "张三", period: "this_month", limit: 5 });
    expect(result.period).toMatchObject({ name: "this_month", from: `${month}-01`, in_progress: true });
    expect(result.filters).toEqual({ employee: "张三 (工号 001)" });
    expect(result.today).toBe(today);
    expect(result.totals.records).toBe(expected.n);
    expect(result.totals.pieces).toBe(expected.pieces);
    expect(result.totals.amount.cents).toBe(expected.cents);
    expect(result.totals.amount.yuan).toBe((expected.cents / 100).toFixed(2));
    expect(result.records.length).toBe(Math.min(5, expected.n));
    expect(result.records.every((r) => r.employee.name === "张三" && r.work_date.startsWith(month))).toBe(true);
  });

  it("pages with a cursor through every record exactly once, newest first", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let total = 0;
    do {
      const page: Records = await ok<Records>(BOSS, "query_piece_records", {
        employee: "e-jx-zhangsan",
        month: shanghaiToday().slice(0, 7),
        limit: 7,
        ...(cursor ? { cursor } : {}),
      });
      total = page.totals.records;
      seen.push(...page.records.map((r) => r.id));
      const dates = page.records.map((r) => r.work_date);
      expect([...dates].sort().reverse()).toEqual(dates);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen.length).toBe(total);
    expect(new Set(seen).size).toBe(total);
  });

  it("refuses a cursor that was not ours", async () => {
    const failure = await fails(BOSS, "query_piece_records", { cursor: "bm90LWEtY3Vyc29y" });
    expect(failure.code).toBe("invalid_input");
  });

  it("filters by process (领子 finds 上领子), order and dates, and groups per employee", async () => {
    const byProcess = await ok<Records>(BOSS, "query_piece_records", { process: "领子", limit: 100 });
    expect(byProcess.records.every((r) => r.process.name === "上领子")).toBe(true);
    expect(byProcess.totals.records).toBeGreaterThan(0);

    const today = shanghaiToday();
    const day = await ok<Records>(BOSS, "query_piece_records", {
      date_from: today,
      date_to: today,
      group_by: "employee",
      with_records: true,
      limit: 100,
    });
    expect(day.records?.every((r) => r.work_date === today)).toBe(true);
    const groupSum = (day.groups ?? []).reduce((n, g) => n + g.pieces, 0);
    expect(groupSum).toBe(day.totals.pieces);

    const order = await ok<Records>(BOSS, "query_piece_records", {
      order: "2026-003".replace("2026", today.slice(0, 4)),
      limit: 1,
    });
    const expected = await sql<{ n: number }>("SELECT COUNT(*) AS n FROM piece_records WHERE order_id = 'o-jx-3'");
    expect(order.totals.records).toBe(expected.n);
  });

  it("treats a process name shared by several styles as all of them", async () => {
    const cutting = await ok<Records>(BOSS, "query_piece_records", { process: "裁剪", limit: 1 });
    const expected = await sql<{ n: number }>(
      "SELECT COUNT(*) AS n FROM piece_records r JOIN processes p ON p.id = r.process_id WHERE r.tenant_id = 't-jinxiu' AND p.name = '裁剪'",
    );
    expect(cutting.totals.records).toBe(expected.n);
  });

  it("returns candidates for an ambiguous name and close names for an unknown one", async () => {
    const ambiguous = await fails(BOSS, "query_piece_records", { employee: "张" });
    expect(ambiguous.code).toBe("ambiguous_name");
    expect(ambiguous.message).toContain("张三");
    expect(ambiguous.message).toContain("张敏");
    const longer = await fails(BOSS, "query_piece_records", { employee: "张三丰" });
    expect(longer.code).toBe("unknown_name");
    expect(longer.message).toContain("张三");
    const missing = await fails(BOSS, "query_piece_records", { employee: "王五" });
    expect(missing.code).toBe("unknown_name");
    expect(missing.message).toContain("王芳");
  });

  it("refuses period and month together", async () => {
    expect((await fails(BOSS, "query_piece_records", { period: "today", month: "2026-03" })).code).toBe("invalid_input");
    expect((await fails(BOSS, "query_piece_records", { month: "2026-13" })).code).toBe("invalid_input");
    expect((await fails(BOSS, "query_piece_records", { date_from: "2026-02-30" })).code).toBe("invalid_input");
  });

  it("shows staff only their own records and refuses to show them anyone else's", async () => {
    const own = await ok<Records>(STAFF, "query_piece_records", { limit: 100 });
    expect(own.scope).toBe("own");
    expect(own.records.every((r) => r.employee.name === "李娟")).toBe(true);
    const expected = await sql<{ n: number }>("SELECT COUNT(*) AS n FROM piece_records WHERE employee_id = 'e-jx-lijuan'");
    expect(own.totals.records).toBe(expected.n);
    expect((await fails(STAFF, "query_piece_records", { employee: "张三" })).code).toBe("forbidden");
    const grouped = await ok<Records>(STAFF, "query_piece_records", { group_by: "employee" });
    expect(grouped.groups?.map((g) => g.label)).toEqual(["李娟"]);
  });

  it("lets an admin see the workshop as a boss does", async () => {
    const result = await ok<Records>(ADMIN, "query_piece_records", { employee: "张三", limit: 1 });
    expect(result.scope).toBe("workshop");
    expect(result.totals.records).toBeGreaterThan(0);
  });

  it("never finds another workshop's employee, process or order", async () => {
    // 华美服饰 has its own 张三; asking by 锦绣's employee id finds nothing there.
    const theirs = await ok<Records>(OTHER_BOSS, "query_piece_records", { employee: "张三", limit: 100 });
    expect(theirs.records.every((r) => r.employee.id === "e-hm-zhangsan")).toBe(true);
    expect((await fails(OTHER_BOSS, "query_piece_records", { employee: "e-jx-zhangsan" })).code).toBe("unknown_name");
    expect((await fails(OTHER_BOSS, "query_piece_records", { order: "o-jx-1" })).code).toBe("unknown_name");
    expect((await fails(OTHER_BOSS, "query_piece_records", { process: "合肩缝" })).code).toBe("unknown_name");
    expect((await fails(BOSS, "query_payroll", { employee: "e-hm-zhoumei" })).code).toBe("unknown_name");
  });

  it("counts a record on the 1st of the month in the workshop's month, not UTC's", async () => {
    // 2026-03-31T17:00Z is already 2026-04-01 01:00 in Shanghai.
    const now = new Date("2026-03-31T17:00:00Z");
    await dbOf("t-other").batch([
      dbOf("t-other").prepare(
        "INSERT INTO piece_records (id, tenant_id, employee_id, process_id, order_id, quantity, unit_price_cents, work_date) SELECT 'pr-tz-test', 't-other', 'e-hm-zhoumei', id, 'o-hm-1', 7, 30, '2026-04-01' FROM processes WHERE tenant_id = 't-other' AND name = '锁边'",
      ),
    ]);
    const thisMonth = await ok<Records>(
      OTHER_BOSS,
      "query_piece_records",
      { employee: "周梅", period: "this_month", limit: 100 },
      now,
    );
    expect(thisMonth.today).toBe("2026-04-01");
    expect(thisMonth.period).toMatchObject({ from: "2026-04-01", to: "2026-04-30", in_progress: true });
    expect(thisMonth.records.map((r) => r.id)).toContain("pr-tz-test");
    const today = await ok<Records>(OTHER_BOSS, "query_piece_records", { employee: "周梅", period: "today" }, now);
    expect(today.records.map((r) => r.id)).toEqual(["pr-tz-test"]);
    const lastMonth = await ok<Records>(
      OTHER_BOSS,
      "query_piece_records",
      { employee: "周梅", period: "last_month", limit: 100 },
      now,
    );
    expect(lastMonth.period).toEqual({
      name: "last_month",
      of: "work_date",
      from: "2026-03-01",
      to: "2026-03-31",
      in_progress: false,
    });
    expect(lastMonth.records.map((r) => r.id)).not.toContain("pr-tz-test");
  });
});

interface Payroll {
  month: string;
  payslips: {
    employee: { name: string };
    pieces: number;
    piece_wage: Money;
    allowances: Money;
    deductions: Money;
    net_pay: Money;
    lines?: { pieces: number; amount: Money }[];
  }[];
  totals: { employees: number; net_pay: Money; pieces: number };
  next_cursor: string | null;
  scope: string;
}

describe("query_payroll", () => {
  it("answers 三月工资: piece wage from records, plus allowances, minus deductions", async () => {
    const year = Number(shanghaiToday().slice(0, 4));
    const march = `${Number(shanghaiToday().slice(5, 7)) >= 3 ? year : year - 1}-03`;
    const result = await ok<Payroll>(BOSS, "query_payroll", { month: march, employee: "张三", with_lines: true });
    const slip = result.payslips[0];
    expect(slip?.employee.name).toBe("张三");
    const expected = await sql<{ pieces: number; cents: number }>(
      "SELECT SUM(quantity) AS pieces, SUM(quantity * unit_price_cents) AS cents FROM piece_records WHERE employee_id = 'e-jx-zhangsan' AND work_date LIKE ?1",
      `${march}-%`,
    );
    expect(slip?.pieces).toBe(expected.pieces);
    expect(slip?.piece_wage.cents).toBe(expected.cents);
    expect(slip?.allowances.cents).toBe(10000);
    expect(slip?.deductions.cents).toBe(20000);
    expect(slip?.net_pay.cents).toBe(expected.cents + 10000 - 20000);
    expect(slip?.lines?.reduce((n, l) => n + l.amount.cents, 0)).toBe(expected.cents);
  });

  it("lists every employee of the month for a boss, in pages, with totals over all of them", async () => {
    const first = await ok<Payroll>(BOSS, "query_payroll", { limit: 2 });
    expect(first.payslips).toHaveLength(2);
    expect(first.next_cursor).toBeTruthy();
    const rest = await ok<Payroll>(BOSS, "query_payroll", { limit: 100, cursor: first.next_cursor });
    const names = [...first.payslips, ...rest.payslips].map((s) => s.employee.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBe(first.totals.employees);
    expect(names).toContain("张三");
  });

  it("shows staff only their own pay", async () => {
    const own = await ok<Payroll>(STAFF, "query_payroll", {});
    expect(own.scope).toBe("own");
    expect(own.payslips.map((s) => s.employee.name)).toEqual(["李娟"]);
    expect((await fails(STAFF, "query_payroll", { employee: "张三" })).code).toBe("forbidden");
  });
});

describe("query_orders, query_processes, query_employees", () => {
  it("filters orders by status and customer, with progress and totals", async () => {
    const open = await ok<{
      orders: { order_no: string; status: string; progress: { percent: number; processes: Record<string, number> } }[];
      totals: { orders: number };
    }>(STAFF, "query_orders", { status: "open" });
    expect(open.orders.every((o) => o.status === "pending" || o.status === "in_production")).toBe(true);
    expect(open.totals.orders).toBe(open.orders.length);
    expect(Object.keys(open.orders.find((o) => o.status === "in_production")?.progress.processes ?? {}).length).toBeGreaterThan(
      0,
    );
    const byCustomer = await ok<{ orders: { customer: string }[] }>(BOSS, "query_orders", { customer_contains: "海澜" });
    expect(byCustomer.orders.map((o) => o.customer)).toEqual(["海澜"]);
    const paged = await ok<{ orders: unknown[]; next_cursor: string | null }>(BOSS, "query_orders", { limit: 2 });
    expect(paged.orders).toHaveLength(2);
    const next = await ok<{ orders: unknown[] }>(BOSS, "query_orders", { limit: 100, cursor: paged.next_cursor });
    expect(paged.orders.length + next.orders.length).toBe(5);
  });

  it("counts a process added after an order was placed only once it has pieces on that order", async () => {
    type Orders = {
      orders: { order_no: string; status: string; progress: { percent: number; processes: Record<string, number> } }[];
    };
    const before = await ok<Orders>(BOSS, "query_orders", { limit: 100 });
    await dbOf("t-jinxiu")
      .prepare(
        "INSERT INTO processes (id, tenant_id, style_id, name, unit_price_cents, sort_order) VALUES ('p-jx-new', 't-jinxiu', 'st-jx-a01', '锁眼新', 50, 99)",
      )
      .run();
    const after = await ok<Orders>(BOSS, "query_orders", { limit: 100 });
    expect(after.orders.map((o) => [o.order_no, o.progress])).toEqual(before.orders.map((o) => [o.order_no, o.progress]));
    const finished = after.orders.find((o) => o.status === "completed");
    expect(finished?.progress.percent).toBe(100);
    // Pieces of it on 2026-001 (o-jx-1): now it is part of that order's progress.
    await dbOf("t-jinxiu")
      .prepare(
        "INSERT INTO piece_records (id, tenant_id, employee_id, process_id, order_id, quantity, unit_price_cents, work_date) VALUES ('pr-new', 't-jinxiu', 'e-jx-zhangsan', 'p-jx-new', 'o-jx-1', 10, 50, ?1)",
      )
      .bind(shanghaiToday())
      .run();
    const counted = await ok<Orders>(BOSS, "query_orders", { limit: 100 });
    const first = counted.orders.find((o) => o.order_no.endsWith("-001"));
    expect(first?.progress.processes.锁眼新).toBe(10);
    expect(first?.progress.percent).toBe(0);
    // The demo workshop as the other tests know it.
    await dbOf("t-jinxiu").batch([
      dbOf("t-jinxiu").prepare("DELETE FROM piece_records WHERE id = 'pr-new'"),
      dbOf("t-jinxiu").prepare("DELETE FROM processes WHERE id = 'p-jx-new'"),
    ]);
  });

  it("lists processes with prices in cents and yuan, as every amount, by style", async () => {
    const a01 = await ok<{ processes: { name: string; unit_price: Money }[] }>(STAFF, "query_processes", {
      style: "男式衬衫",
      limit: 100,
    });
    const collar = a01.processes.find((p) => p.name === "上领子");
    expect(collar?.unit_price).toEqual({ cents: 80, yuan: "0.80" });
    expect(a01.processes).toHaveLength(7);
  });

  it("shows a boss every employee and staff only themselves, without phone numbers", async () => {
    const all = await ok<{ employees: { name: string; phone?: string }[] }>(BOSS, "query_employees", {
      status: "active",
    });
    expect(all.employees.map((e) => e.name)).toContain("张三");
    expect(all.employees.map((e) => e.name)).not.toContain("陈静");
    expect(all.employees[0]?.phone).toBeTruthy();
    const own = await ok<{ employees: { name: string; phone?: string }[] }>(STAFF, "query_employees", {});
    expect(own.employees.map((e) => e.name)).toEqual(["李娟"]);
    expect(own.employees[0]).not.toHaveProperty("phone");
    const other = await ok<{ employees: { name: string }[] }>(OTHER_BOSS, "query_employees", {});
    expect(other.employees.map((e) => e.name).sort()).toEqual(["周梅", "张三"].sort());
  });

  it("pages processes and employees with a cursor, and refuses another workshop's style", async () => {
    const first = await ok<{ processes: { id: string }[]; totals: { processes: number }; next_cursor: string | null }>(
      BOSS,
      "query_processes",
      { limit: 5 },
    );
    const rest = await ok<{ processes: { id: string }[]; next_cursor: string | null }>(BOSS, "query_processes", {
      limit: 100,
      cursor: first.next_cursor,
    });
    const ids = [...first.processes, ...rest.processes].map((p) => p.id);
    expect(ids.length).toBe(first.totals.processes);
    expect(new Set(ids).size).toBe(ids.length);
    expect(rest.next_cursor).toBeNull();

    const people = await ok<{ employees: { id: string }[]; totals: { employees: number }; next_cursor: string | null }>(
      BOSS,
      "query_employees",
      { limit: 3 },
    );
    const more = await ok<{ employees: { id: string }[] }>(BOSS, "query_employees", { limit: 100, cursor: people.next_cursor });
    expect(people.employees.length + more.employees.length).toBe(people.totals.employees);
    expect((await fails(OTHER_BOSS, "query_processes", { style: "A01" })).code).toBe("unknown_name");
  });
});

describe("the workshop's time zone at a month boundary", () => {
  // 2026-04-30T16:30Z is already 2026-05-01 00:30 in Shanghai.
  const now = new Date("2026-04-30T16:30:00Z");

  it("makes payroll default to the workshop's month", async () => {
    const payroll = await ok<{ month: string; today: string }>(OTHER_BOSS, "query_payroll", {}, now);
    expect(payroll).toMatchObject({ month: "2026-05", today: "2026-05-01" });
  });

  it("dates a piece record on the workshop's today and refuses its tomorrow", async () => {
    const action = await ok<{ preview: { label: string; value: string }[] }>(
      OTHER_BOSS,
      "prepare_piece_record",
      { employee: "周梅", process: "锁边", quantity: 5 },
      now,
    );
    expect(action.preview.find((f) => f.label === "日期")?.value).toBe("2026-05-01");
    const tomorrow = await fails(
      OTHER_BOSS,
      "prepare_piece_record",
      { employee: "周梅", process: "锁边", quantity: 5, work_date: "2026-05-02" },
      now,
    );
    expect(tomorrow.code).toBe("invalid_input");
  });
});

describe("query_orders by the day orders were placed", () => {
  // Around the end of November 2025 in Shanghai (UTC+8): 23:30 on the 30th is still November there,
  // though 15:30 UTC; midnight on 1 December is 16:00 UTC on the 30th.
  const PLACED: [string, string][] = [
    ["o-placed-oct", "2025-10-31T15:59:59.999Z"],
    ["o-placed-nov-first", "2025-10-31T16:00:00.000Z"],
    ["o-placed-nov-last", "2025-11-30T15:30:00.000Z"],
    ["o-placed-dec", "2025-11-30T16:00:00.000Z"],
  ];
  const insert = () =>
    dbOf("t-jinxiu").batch(
      PLACED.map(([id, createdAt], i) =>
        dbOf("t-jinxiu")
          .prepare(
            "INSERT INTO orders (id, tenant_id, order_no, customer, style_id, quantity, due_date, created_at) VALUES (?1, 't-jinxiu', ?2, '测试客户', 'st-jx-a01', 10, '2026-12-31', ?3)",
          )
          .bind(id, `P-${i}`, createdAt),
      ),
    );
  const remove = () => dbOf("t-jinxiu").prepare("DELETE FROM orders WHERE id LIKE 'o-placed-%'").run();
  type Placed = { orders: { id: string; created_on: string }[]; totals: { orders: number } };
  const placed = (user: typeof BOSS, input: Record<string, unknown>) =>
    ok<Placed>(user, "query_orders", { limit: 100, customer_contains: "测试客户", ...input });

  it("counts an order placed at 23:30 on the month's last day in that month, in the workshop's zone", async () => {
    await insert();
    try {
      const november = await placed(BOSS, { created_from: "2025-11-01", created_to: "2025-11-30" });
      expect(november.orders.map((o) => o.id).sort()).toEqual(["o-placed-nov-first", "o-placed-nov-last"]);
      expect(november.totals.orders).toBe(2);
      expect(november.orders.find((o) => o.id === "o-placed-nov-last")?.created_on).toBe("2025-11-30");
      const lastDay = await placed(BOSS, { created_from: "2025-11-30", created_to: "2025-11-30" });
      expect(lastDay.orders.map((o) => o.id)).toEqual(["o-placed-nov-last"]);
      const december = await placed(BOSS, { created_from: "2025-12-01" });
      expect(december.orders.map((o) => o.id)).toEqual(["o-placed-dec"]);
      expect(december.orders[0]?.created_on).toBe("2025-12-01");
      const october = await placed(STAFF, { created_to: "2025-10-31" });
      expect(october.orders.map((o) => o.id)).toEqual(["o-placed-oct"]);
      // Another workshop never sees them, whatever the days.
      expect((await placed(OTHER_BOSS, { created_from: "2025-01-01" })).orders).toEqual([]);
    } finally {
      await remove();
    }
  });

  it("reads the days in the workshop's own zone when it is not Shanghai", async () => {
    await insert();
    await dbOf("t-jinxiu").prepare("UPDATE tenants SET time_zone = 'Europe/Paris' WHERE id = 't-jinxiu'").run();
    try {
      // In Paris (UTC+1) the first two were placed on 31 October, the last two on 30 November.
      const november = await placed(BOSS, { created_from: "2025-11-01", created_to: "2025-11-30" });
      expect(november.orders.map((o) => o.id).sort()).toEqual(["o-placed-dec", "o-placed-nov-last"]);
      expect(november.orders.every((o) => o.created_on.startsWith("2025-11"))).toBe(true);
    } finally {
      await dbOf("t-jinxiu").prepare("UPDATE tenants SET time_zone = 'Asia/Shanghai' WHERE id = 't-jinxiu'").run();
      await remove();
    }
  });

  it("refuses a reversed range of creation or due days, and a day that does not exist, naming the field", async () => {
    const created = await fails(BOSS, "query_orders", { created_from: "2025-11-30", created_to: "2025-11-01" });
    expect(created.code).toBe("invalid_input");
    expect(created.message).toContain("created_from");
    const due = await fails(BOSS, "query_orders", { due_from: "2026-12-31", due_to: "2026-12-01" });
    expect(due.code).toBe("invalid_input");
    expect(due.message).toContain("due_from");
    const impossible = await fails(BOSS, "query_orders", { created_from: "2025-02-30" });
    expect(impossible.code).toBe("invalid_input");
    expect(impossible.message).toContain("created_from");
  });
});

describe("a workshop's time zone", () => {
  // 17:30 UTC on the 25th is already the 26th in Shanghai, still the 25th in Paris.
  const NOW = new Date("2026-11-25T17:30:00Z");
  const setZone = (zone: string) =>
    dbOf("t-jinxiu").prepare("UPDATE tenants SET time_zone = ?1 WHERE id = 't-jinxiu'").bind(zone).run();

  it("dates the business answers in the workshop's own zone", async () => {
    await setZone("Europe/Paris");
    try {
      const result = await ok<{ today: string; time_zone: string }>(BOSS, "query_orders", { limit: 1 }, NOW);
      expect(result).toMatchObject({ today: "2026-11-25", time_zone: "Europe/Paris" });
    } finally {
      await setZone("Asia/Shanghai");
    }
  });

  it("falls back on Shanghai's when the stored zone is unknown or empty, rather than failing every question", async () => {
    for (const zone of ["Mars/Olympus", "", "__proto__"]) {
      await setZone(zone);
      try {
        const result = await ok<{ today: string; time_zone: string }>(BOSS, "query_orders", { limit: 1 }, NOW);
        expect(result).toMatchObject({ today: "2026-11-26", time_zone: "Asia/Shanghai" });
      } finally {
        await setZone("Asia/Shanghai");
      }
    }
  });
});
