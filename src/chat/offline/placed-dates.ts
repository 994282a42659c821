import { type DateRange, monthRange } from "../../business/local-time.ts";
import type { DateMention } from "./dates.ts";
import { dueRange, rangeWords } from "./due-dates.ts";

/**
 * The days a mention covers as days orders were placed on ("本月新增的订单"), for `query_orders`'
 * `created_from`/`created_to`. Orders are placed in the past, so a month said without its year is
 * the last such month ("三月新建的" in November is this March), unlike a due month; `null` when the
 * days have not begun yet ("下周新建的"), which no order can have been placed on.
 *
 * @example placedRange({ kind: "period", period: "this_week" }, "2026-11-26") // 2026-11-23 to 2026-11-29
 */
export function placedRange(date: DateMention, today: string): DateRange | null {
  if (date.kind === "day") return date.date > today ? null : { from: date.date, to: date.date };
  const range = date.kind === "month" ? monthRange(date.month) : dueRange(date, today);
  return range.from > today ? null : range;
}

/**
 * The line that says which days a list of orders was placed on, so "本月新增的订单" cannot be read
 * as orders due this month: "本月新增的订单（2026-11-01 至 2026-11-30）：". When none came back it
 * says so, and whether other filters (a status) left them out.
 */
export function placedHeading(
  range: DateRange,
  today: string,
  { chinese, found, filtered }: { chinese: boolean; found: boolean; filtered: boolean },
): string {
  const { name, span, when } = rangeWords(range, today, chinese);
  if (chinese) {
    if (!name) {
      if (found) return `${span} 新增的订单：`;
      return filtered ? `${span} 新增的订单里没有符合条件的。` : `${span} 没有新增的订单。`;
    }
    if (found) return `${name}新增的订单（${span}）：`;
    return filtered ? `${name}新增的订单（${span}）里没有符合条件的。` : `${name}（${span}）没有新增的订单。`;
  }
  if (found) return `Orders placed ${when}:`;
  return filtered ? `No matching orders were placed ${when}.` : `No orders were placed ${when}.`;
}
