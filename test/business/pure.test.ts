import { describe, expect, it } from "vitest";
import { dayStartUtc, localDate, periodRange, resolveDates, weekRange } from "../../src/business/local-time.ts";
import { yuan } from "../../src/business/money.ts";
import { matchName } from "../../src/business/name-match.ts";
import { decodeCursor, encodeCursor } from "../../src/cursor.ts";

const named = (names: string[]) => names.map((name, i) => ({ id: `id-${i}`, name, label: name }));

describe("business building blocks", () => {
  it("writes cents as yuan exactly", () => {
    expect([yuan(0), yuan(5), yuan(80), yuan(235000), yuan(-5), yuan(-12345)]).toEqual([
      "0.00",
      "0.05",
      "0.80",
      "2350.00",
      "-0.05",
      "-123.45",
    ]);
  });

  it("matches names exact, then contained, and reports ambiguity and close names", () => {
    const items = named(["上领子", "上袖子", "领口包边", "张三", "张敏"]);
    expect(matchName(items, "上领子")).toMatchObject({ kind: "found", item: { name: "上领子" } });
    expect(matchName(items, "袖子")).toMatchObject({ kind: "found", item: { name: "上袖子" } });
    expect(matchName(items, "领").kind).toBe("ambiguous");
    expect(matchName(items, "张")).toMatchObject({ kind: "ambiguous", candidates: [{ name: "张三" }, { name: "张敏" }] });
    expect(matchName(items, " 张 三 ")).toMatchObject({ kind: "found", item: { name: "张三" } });
    expect(matchName(items, "id-3")).toMatchObject({ kind: "found", item: { name: "张三" } });
    const unknown = matchName(items, "下领子");
    expect(unknown.kind).toBe("unknown");
    expect(unknown.kind === "unknown" && unknown.close[0]?.name).toBe("上领子");
    expect(matchName(items, "__proto__").kind).toBe("unknown");
  });

  it("reads today and the month in the workshop's time zone", () => {
    const now = new Date("2026-03-31T16:30:00Z");
    expect(localDate(now, "Asia/Shanghai")).toBe("2026-04-01");
    expect(localDate(now, "UTC")).toBe("2026-03-31");
    expect(periodRange("this_month", "2026-04-01")).toEqual({ from: "2026-04-01", to: "2026-04-30" });
    expect(periodRange("last_month", "2026-03-15")).toEqual({ from: "2026-02-01", to: "2026-02-28" });
    // 2026-11-26 is a Thursday; weeks start on Monday.
    expect(periodRange("this_week", "2026-11-26")).toEqual({ from: "2026-11-23", to: "2026-11-29" });
    expect(periodRange("last_week", "2026-11-26")).toEqual({ from: "2026-11-16", to: "2026-11-22" });
    // A Sunday is the last day of its week, so its next week starts the next day.
    expect(weekRange("2026-11-26", 1)).toEqual({ from: "2026-11-30", to: "2026-12-06" });
    expect(weekRange("2026-11-29", 1)).toEqual({ from: "2026-11-30", to: "2026-12-06" });
    expect(weekRange("2026-11-30", 0)).toEqual({ from: "2026-11-30", to: "2026-12-06" });
    expect(resolveDates({ month: "2024-02" }, "2026-11-26")).toEqual({ from: "2024-02-01", to: "2024-02-29" });
    expect(resolveDates({}, "2026-11-26")).toBeNull();
  });

  it("round-trips cursors and refuses forged ones", () => {
    const cursor = encodeCursor(["2026-11-26", "pr-1"]);
    expect(decodeCursor(cursor, 2)).toEqual(["2026-11-26", "pr-1"]);
    expect(() => decodeCursor(cursor, 3)).toThrow(/not valid/);
    expect(() => decodeCursor("!!!", 2)).toThrow(/not valid/);
    expect(() => decodeCursor(encodeCursor([{ a: 1 } as unknown as string]), 1)).toThrow(/not valid/);
    expect(() => decodeCursor("a".repeat(100_000), 2)).toThrow(/not valid/);
  });
});

describe("the instant a workshop's day begins, as created_at is stored", () => {
  it("is the local midnight in UTC, to the millisecond format D1 writes", () => {
    expect(dayStartUtc("2026-12-01", "Asia/Shanghai")).toBe("2026-11-30T16:00:00.000Z");
    expect(dayStartUtc("2026-11-26", "UTC")).toBe("2026-11-26T00:00:00.000Z");
    expect(dayStartUtc("2026-11-26", "Asia/Kolkata")).toBe("2026-11-25T18:30:00.000Z");
  });

  it("follows daylight saving on the days the clocks change", () => {
    expect(dayStartUtc("2026-03-29", "Europe/Paris")).toBe("2026-03-28T23:00:00.000Z");
    expect(dayStartUtc("2026-03-30", "Europe/Paris")).toBe("2026-03-29T22:00:00.000Z");
    expect(dayStartUtc("2026-10-26", "Europe/Paris")).toBe("2026-10-25T23:00:00.000Z");
    // Santiago skips from 23:59 to 01:00 on 6 September 2026: the day begins at 01:00 local.
    expect(dayStartUtc("2026-09-06", "America/Santiago")).toBe("2026-09-06T04:00:00.000Z");
    expect(localDate(new Date("2026-09-06T03:59:00Z"), "America/Santiago")).toBe("2026-09-05");
  });
});
