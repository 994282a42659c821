import { addMonths, type Period } from "../../business/local-time.ts";
import { type DateMention, datesIn, isFuture } from "./dates.ts";
import type { Decline } from "./declines.ts";
import { findPersonName } from "./entities.ts";
import { dateArgs } from "./intents.ts";

/**
 * Two periods of someone's work or pay set side by side ("张三上个月比这个月多做了多少件"): the
 * period asked about (`subject`) and the one it is measured against (`base`), as in "subject 比 base".
 */
export interface Comparison {
  measure: "pieces" | "pay";
  /** The person named, or `null`: the caller's own records for staff, the whole workshop for a boss. */
  employee: string | null;
  subject: DateMention;
  base: DateMention;
}

// Words that set two periods side by side.
const COMPARE = /比|\b(?:than|compared? (?:to|with)|vs\.?|versus)\b/i;
// What stands right before the period measured against: "比上个月", "跟上个月比", "than last month".
const BASE_BEFORE = /(?:(?<!对)比起?|跟|和|与|同|\bthan|\bcompared? (?:to|with)|\bvs\.?|\bversus)\s*$/i;
const PAY = /工资|薪水|工钱|收入|[挣赚]|\b(?:pay|paid|earn\w*|wages?|salary)\b/i;
const PIECES = /件|做|产量|计件|\b(?:pieces?|output)\b/i;

// The period running now that a lone "比上个月" is set against: this month, this week, today.
function current(base: DateMention): DateMention {
  const weekly = base.kind === "range" || (base.kind === "period" && base.period === "last_week");
  const daily = base.kind === "day" || (base.kind === "period" && base.period === "yesterday");
  const period: Period = weekly ? "this_week" : daily ? "today" : "this_month";
  return { kind: "period", period };
}

function sameDate(a: DateMention, b: DateMention): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The comparison a request asks for, or `null`: a comparing word, what is compared (pieces or
 * pay) and two periods, or one period measured against ("比上个月多做了多少件" sets it against now).
 *
 * @example findComparison("张三上个月比这个月多做了多少件", "2026-11-26") // 张三, pieces, last_month vs this_month
 */
export function findComparison(text: string, today: string): Comparison | null {
  if (!COMPARE.test(text)) return null;
  const measure = PAY.test(text) ? "pay" : PIECES.test(text) ? "pieces" : null;
  if (!measure) return null;
  const dates = datesIn(text, today);
  const first = dates[0];
  if (!first) return null;
  const second = dates.find((d) => !sameDate(d.date, first.date));
  const isBase = (d: { at: number }) => BASE_BEFORE.test(text.slice(0, d.at));
  let subject: DateMention;
  let base: DateMention;
  if (!second) {
    if (!isBase(first)) return null;
    base = first.date;
    subject = current(base);
    if (sameDate(subject, base)) return null;
  } else if (isBase(first) && !isBase(second)) {
    subject = second.date;
    base = first.date;
  } else {
    subject = first.date;
    base = second.date;
  }
  return { measure, employee: findPersonName(text), subject, base };
}

// The month a mention names, when it names a whole one: pay is kept by month.
function monthOf(date: DateMention, today: string): string | null {
  if (date.kind === "month") return date.month;
  if (date.kind !== "period") return null;
  if (date.period === "this_month") return today.slice(0, 7);
  if (date.period === "last_month") return addMonths(today, -1);
  return null;
}

/** The two calls a comparison makes, subject first: payslips for two months, else piece records (their amounts for pay). */
export function comparisonCalls(
  comparison: Comparison,
  today: string,
): { toolName: string; inputs: [Record<string, unknown>, Record<string, unknown>] } | (Decline & { decline: "future" }) {
  const { subject, base, measure } = comparison;
  const future = [subject, base].find(isFuture);
  if (future && isFuture(future)) {
    return { decline: "future", what: measure === "pay" ? "payroll" : "pieces", period: future.period };
  }
  const who = comparison.employee ? { employee: comparison.employee, employee_name: comparison.employee } : {};
  const months = [monthOf(subject, today), monthOf(base, today)];
  if (measure === "pay" && months[0] && months[1]) {
    return {
      toolName: "query_payroll",
      inputs: [
        { ...who, month: months[0] },
        { ...who, month: months[1] },
      ],
    };
  }
  return {
    toolName: "query_piece_records",
    inputs: [
      { ...who, ...dateArgs(subject, []) },
      { ...who, ...dateArgs(base, []) },
    ],
  };
}
