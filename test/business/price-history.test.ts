import { describe, expect, it } from "vitest";
import { addDays } from "../../src/business/local-time.ts";
import { dbOf } from "../fixtures.ts";
import { BOSS, fails, ok, shanghaiToday } from "./run.ts";

interface Pending {
  action_id: string;
  status: string;
  summary: string;
  preview: { label: string; value: string }[];
}

const db = () => dbOf("t-jinxiu");
const previewOf = (action: Pending) => Object.fromEntries(action.preview.map((f) => [f.label, f.value]));
const at = (date: string) => new Date(`${date}T04:00:00Z`);

async function record(quantity: number, workDate: string, now: Date): Promise<{ id: string; cents: number }> {
  const action = await ok<Pending>(
    BOSS,
    "prepare_piece_record",
    { employee: "张三", process: "上领子", quantity, order: "o-jx-1", work_date: workDate },
    now,
  );
  const done = await ok<{ status: string }>(BOSS, "confirm_action", { action_id: action.action_id });
  expect(done.status).toBe("confirmed");
  const row = await db()
    .prepare("SELECT id, unit_price_cents AS cents FROM piece_records WHERE action_id = ?1")
    .bind(action.action_id)
    .first<{ id: string; cents: number }>();
  return row as { id: string; cents: number };
}

async function priceOf(id: string): Promise<number> {
  const row = await db()
    .prepare("SELECT unit_price_cents FROM piece_records WHERE id = ?1")
    .bind(id)
    .first<{ unit_price_cents: number }>();
  return row?.unit_price_cents ?? -1;
}

/** 张三's piece wage over the months that hold `dates`, as query_payroll answers it. */
async function pieceWage(dates: string[], now: Date): Promise<number> {
  let cents = 0;
  for (const month of new Set(dates.map((d) => d.slice(0, 7)))) {
    const { payslips } = await ok<{ payslips: { piece_wage: { cents: number } }[] }>(
      BOSS,
      "query_payroll",
      { employee: "张三", month },
      now,
    );
    cents += payslips[0]?.piece_wage.cents ?? 0;
  }
  return cents;
}

async function recordedWage(dates: string[]): Promise<number> {
  const months = [...new Set(dates.map((d) => d.slice(0, 7)))];
  let cents = 0;
  for (const month of months) {
    const row = await db()
      .prepare(
        "SELECT COALESCE(SUM(quantity * unit_price_cents), 0) AS cents FROM piece_records WHERE employee_id = 'e-jx-zhangsan' AND work_date LIKE ?1",
      )
      .bind(`${month}-%`)
      .first<{ cents: number }>();
    cents += row?.cents ?? 0;
  }
  return cents;
}

describe("a process's price from a day on", () => {
  const today = shanghaiToday();
  const tomorrow = addDays(today, 1);

  it("keeps the price of every record entered before the change, gives records of later days the new one, and payroll adds up", async () => {
    const before = await record(10, today, at(today));
    expect(before.cents).toBe(80);
    const wageBefore = await pieceWage([today, tomorrow], at(today));

    const change = await ok<Pending>(
      BOSS,
      "prepare_business_change",
      { change: "price", process: "上领子", style: "A01", unit_price: 0.9, date: tomorrow },
      at(today),
    );
    expect(previewOf(change)).toMatchObject({
      工序: "上领子（A01 男式衬衫）",
      单价: "0.80 → 0.90 元/件",
      已登记的计件: "不变，仍按登记时的单价",
    });
    expect(previewOf(change).生效日期).toContain(tomorrow);
    expect((await ok<{ status: string }>(BOSS, "confirm_action", { action_id: change.action_id })).status).toBe("confirmed");

    // Today is still 0.80: the change applies from tomorrow.
    const sameDay = await record(5, today, at(today));
    expect(sameDay.cents).toBe(80);
    // Tomorrow, a record of tomorrow takes 0.90, and one of today (entered late) keeps today's price.
    const after = await record(20, tomorrow, at(tomorrow));
    expect(after.cents).toBe(90);
    const late = await record(3, today, at(tomorrow));
    expect(late.cents).toBe(80);
    expect(await priceOf(before.id)).toBe(80);

    const wageAfter = await pieceWage([today, tomorrow], at(tomorrow));
    expect(wageAfter - wageBefore).toBe(5 * 80 + 20 * 90 + 3 * 80);
    expect(wageAfter).toBe(await recordedWage([today, tomorrow]));
  });

  it("keeps the history readable: the first price, then each change with its day", async () => {
    const { processes } = await ok<{
      processes: {
        name: string;
        unit_price: { yuan: string };
        next_price?: { unit_price: { yuan: string }; from: string };
        price_history?: { unit_price: { yuan: string }; from: string | null }[];
      }[];
    }>(BOSS, "query_processes", { style: "A01", name_contains: "上领子", with_history: true }, at(today));
    const collar = processes.find((p) => p.name === "上领子");
    expect(collar?.unit_price.yuan).toBe("0.80");
    expect(collar?.next_price).toEqual({ unit_price: { cents: 90, yuan: "0.90" }, from: tomorrow });
    expect(collar?.price_history?.map((p) => [p.from, p.unit_price.yuan])).toEqual([
      [null, "0.80"],
      [tomorrow, "0.90"],
    ]);
  });

  it("refuses a price from a day already past, so no record entered before it changes", async () => {
    const refused = await fails(
      BOSS,
      "prepare_business_change",
      { change: "price", process: "上领子", style: "A01", unit_price: 1, date: addDays(today, -1) },
      at(today),
    );
    expect(refused).toMatchObject({ code: "invalid_input" });
    expect(refused.message).toMatch(/before today/);
  });

  it("refuses a prepared piece record at the old price once the price of its day changed, and says so", async () => {
    const prepared = await ok<Pending>(
      BOSS,
      "prepare_piece_record",
      { employee: "张三", process: "上领子", quantity: 7, order: "o-jx-1" },
      at(today),
    );
    expect(previewOf(prepared).单价).toBe("0.80 元/件");
    const change = await ok<Pending>(
      BOSS,
      "prepare_business_change",
      { change: "price", process: "上领子", style: "A01", unit_price: 0.85 },
      at(today),
    );
    await ok(BOSS, "confirm_action", { action_id: change.action_id });
    const stale = await fails(BOSS, "confirm_action", { action_id: prepared.action_id });
    expect(stale).toMatchObject({ code: "action_stale" });
    expect(stale.message).toContain("0.80 to 0.85");
    const again = await record(7, today, at(today));
    expect(again.cents).toBe(85);
  });

  it("takes money as 分 up to 100,000 元, and refuses three decimals or more", async () => {
    expect(
      await fails(
        BOSS,
        "prepare_business_change",
        { change: "price", process: "上领子", style: "A01", unit_price: 0.805 },
        at(today),
      ),
    ).toMatchObject({
      code: "invalid_input",
    });
    expect(
      await fails(
        BOSS,
        "prepare_business_change",
        { change: "price", process: "上领子", style: "A01", unit_price: 100_000.01 },
        at(today),
      ),
    ).toMatchObject({
      code: "invalid_input",
    });
    const top = await ok<Pending>(
      BOSS,
      "prepare_business_change",
      { change: "price", process: "上领子", style: "A01", unit_price: 100_000, date: addDays(today, 30) },
      at(today),
    );
    // From then on the latest change set before it, tomorrow's 0.90, is the price it replaces.
    expect(previewOf(top).单价).toBe("0.90 → 100000.00 元/件");
  });
});
