import {
  addDays,
  addMonths,
  type DateRange,
  monthRange,
  type Period,
  periodRange,
  weekRange,
} from "../../business/local-time.ts";
import type { DateMention, FuturePeriod } from "./dates.ts";

/** The dates a named period covers, past or to come; weeks as every business tool counts them. */
function namedRange(period: Period | FuturePeriod, today: string): DateRange {
  switch (period) {
    case "tomorrow":
      return { from: addDays(today, 1), to: addDays(today, 1) };
    case "next_week":
      return weekRange(today, 1);
    case "next_month":
      return monthRange(addMonths(today, 1));
    default:
      return periodRange(period, today);
  }
}

/**
 * The due dates a mention covers, for `query_orders`. A month named without its year ("12月要交的")
 * is the next such month from this one on, as a due day without its year is the next such day; a
 * month said with its year ("2026年3月", "去年12月") is that month.
 *
 * @example dueRange({ kind: "period", period: "next_week" }, "2026-11-26") // 2026-11-30 to 2026-12-06
 */
export function dueRange(date: DateMention, today: string): DateRange {
  if (date.kind === "day") {
    // "12月20日交货" said in November is this December's, as a due date without its year is.
    const day = date.yearless && date.date < today ? `${Number(date.date.slice(0, 4)) + 1}${date.date.slice(4)}` : date.date;
    return { from: day, to: day };
  }
  if (date.kind === "period") return namedRange(date.period, today);
  if (date.kind === "range") return { from: date.from, to: date.to };
  if (date.yearSaid) return monthRange(date.month);
  const month = date.month.slice(5);
  const year = Number(today.slice(0, 4));
  return monthRange(`${month >= today.slice(5, 7) ? year : year + 1}-${month}`);
}

const NAMES: [Period | FuturePeriod, string, string][] = [
  ["today", "今天", "today"],
  ["tomorrow", "明天", "tomorrow"],
  ["yesterday", "昨天", "yesterday"],
  ["this_week", "本周", "this week"],
  ["next_week", "下周", "next week"],
  ["last_week", "上周", "last week"],
  ["this_month", "本月", "this month"],
  ["next_month", "下个月", "next month"],
  ["last_month", "上个月", "last month"],
];

/** What a named period is called ("下周", "next week"). */
export function periodWord(period: Period | FuturePeriod, chinese: boolean): string {
  const [, zh, en] = NAMES.find(([name]) => name === period) as (typeof NAMES)[number];
  return chinese ? zh : en;
}

/** What a range is called seen from `today` ("本周", "next month"), or `null` when it has no name. */
function periodName(range: DateRange, today: string, chinese: boolean): string | null {
  for (const [period] of NAMES) {
    const named = namedRange(period, today);
    if (named.from === range.from && named.to === range.to) return periodWord(period, chinese);
  }
  return null;
}

/** How a reply names a range: its period's name if it has one, its dates, and both together. */
export function rangeWords(
  range: DateRange,
  today: string,
  chinese: boolean,
): { name: string | null; span: string; when: string } {
  const name = periodName(range, today, chinese);
  const single = range.from === range.to;
  if (chinese) {
    const span = single ? range.from : `${range.from} 至 ${range.to}`;
    return { name, span, when: name ? `${name}（${span}）` : span };
  }
  const span = single ? range.from : `${range.from} to ${range.to}`;
  return { name, span, when: name ? `${name} (${span})` : single ? `on ${span}` : `from ${span}` };
}

/**
 * The line that says which due dates a list of orders covers, so "this month's orders" cannot be
 * read as orders created this month: "本月（2026-11-01 至 2026-11-30）到期的订单：". When none came
 * back it says so, and whether other filters (a status) left them out.
 */
export function dueHeading(
  range: DateRange,
  today: string,
  { chinese, found, filtered, open = false }: { chinese: boolean; found: boolean; filtered: boolean; open?: boolean },
): string {
  const { when } = rangeWords(range, today, chinese);
  // Open orders only: what is still to hand over, not every order due then.
  if (open && !filtered) {
    if (chinese) return found ? `${when}要交、还没完成的订单：` : `${when}没有要交的订单（没完成的订单里没有这几天到期的）。`;
    return found ? `Open orders due ${when}:` : `No open orders are due ${when}.`;
  }
  if (chinese) {
    if (found) return `${when}到期的订单：`;
    return filtered ? `${when}到期的订单里没有符合条件的。` : `${when}没有到期的订单。`;
  }
  if (found) return `Orders due ${when}:`;
  return filtered ? `No matching orders are due ${when}.` : `No orders are due ${when}.`;
}
