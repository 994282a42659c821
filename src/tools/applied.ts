import { z } from "zod";
import { addMonths, type DateRange, monthRange, PERIODS, type Period } from "../business/local-time.ts";
import { grouped, yuan } from "../business/money.ts";

// What every business answer says it looked at: the period, the filters and what it assumed, as
// data (so any model or agent can say them) and as the first sentence of its summary. The
// sentences are Chinese, the workshop's language, like the records themselves.

export const PERIOD_NAMES = [...PERIODS, "month", "dates", "all", "current"] as const;
export type PeriodName = (typeof PERIOD_NAMES)[number];

/**
 * The period an answer covers: a named one, a month, dates, `all` (none was given: every record
 * counts) or `current` (as of today); the date it filters on; its first and last day (null when
 * open); and whether it includes today, so that its figures may still grow (a month in progress).
 */
export const PeriodSchema = z.object({
  name: z.enum(PERIOD_NAMES),
  of: z.enum(["work_date", "month", "due_date", "created_on"]).optional(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  in_progress: z.boolean(),
});

export type AppliedPeriod = z.output<typeof PeriodSchema>;

/**
 * The fields every business result leads with: `summary`, the first sentence to tell the person
 * (the answer with its period, filters and counts); the period; the filters applied, by field, as
 * the records name them; and what was read into the question, to say with the answer. The
 * server's instructions say so once for every tool.
 */
export const AppliedSchema = {
  summary: z.string(),
  period: PeriodSchema,
  filters: z.record(z.string(), z.string()),
  assumptions: z.array(z.string()),
};

/** The workshop's clock, which every business answer was computed at. */
export const ClockSchema = { today: z.string(), time_zone: z.string() };

const OPEN_END = { from: "0000-01-01", to: "9999-12-31" };

/** The applied period of a range of dates asked for by a named period, a month, dates, or nothing. */
export function periodOf({
  period,
  month,
  range,
  of,
  today,
}: {
  period?: Period | undefined;
  month?: string | undefined;
  range: DateRange | null;
  of: AppliedPeriod["of"];
  today: string;
}): AppliedPeriod {
  if (!range) return { name: "all", of, from: null, to: null, in_progress: false };
  const from = range.from === OPEN_END.from ? null : range.from;
  const to = range.to === OPEN_END.to ? null : range.to;
  const name: PeriodName = period ?? (month ? "month" : "dates");
  const in_progress = (from === null || from <= today) && (to === null || today <= to);
  return { name, of, from, to, in_progress };
}

// "11-30" where the year is the same as the first day's, else the whole date.
function shortTo(from: string, to: string): string {
  return from.slice(0, 4) === to.slice(0, 4) ? to.slice(5) : to;
}

const NAMED: Partial<Record<PeriodName, string>> = {
  today: "今天",
  yesterday: "昨天",
  this_week: "本周",
  last_week: "上周",
  this_month: "本月",
  last_month: "上个月",
};

/**
 * A period in words: 本月（2026-11-01 至 11-30，进行中）, 2026-03（2026-03-01 至 03-31）,
 * 全部记录（没有限定时间）.
 */
export function periodWords(period: AppliedPeriod, today: string): string {
  if (period.name === "all") return "全部记录（没有限定时间）";
  if (period.name === "current") return "当前";
  const { from, to } = period;
  const going = period.in_progress && from !== to ? "，进行中" : "";
  if (from && to && from === to) return `${NAMED[period.name] ?? ""}${NAMED[period.name] ? `（${from}）` : from}`;
  const span = from && to ? `${from} 至 ${shortTo(from, to)}` : from ? `${from} 起` : `${to} 及以前`;
  let name = NAMED[period.name];
  if (!name && period.name === "month" && from) {
    const month = from.slice(0, 7);
    name = month === today.slice(0, 7) ? "本月" : month === addMonths(today, -1) ? "上个月" : month;
  }
  return name ? `${name}（${span}${going}）` : `${span}${going ? "（进行中）" : ""}`;
}

/** A month's range and applied period, for payroll: a named period (this or last month) or `YYYY-MM`. */
export function monthPeriod({
  period,
  month,
  today,
}: {
  period?: "this_month" | "last_month" | undefined;
  month?: string | undefined;
  today: string;
}): { month: string; period: AppliedPeriod } {
  const chosen = month ?? (period === "last_month" ? addMonths(today, -1) : today.slice(0, 7));
  const range = monthRange(chosen);
  // No month said is this month, and named so.
  const named = period ?? (month ? undefined : "this_month");
  return { month: chosen, period: periodOf({ period: named, month, range, of: "month", today }) };
}

/** A count in words: 2,752. */
export function count(n: number): string {
  return grouped(n);
}

/** An amount of cents in words: 1,691.60 元. */
export function money(cents: number): string {
  return `${grouped(yuan(cents))} 元`;
}

/** Filters as the summary says them: "员工 张三 (工号 001)、工序 上领子 (A01 男式衬衫)". */
export function filterWords(filters: Record<string, string>, words: Record<string, { zh: string }>): string {
  return Object.entries(filters)
    .map(([field, value]) => `${Object.hasOwn(words, field) ? words[field]?.zh : field} ${value}`)
    .join("、");
}
