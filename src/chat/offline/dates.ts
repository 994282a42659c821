import type { Period } from "../../business/local-time.ts";
import { parseNumber } from "./numbers.ts";

/** Periods still to come: what a due date may name, though no piece record or payslip has them yet. */
export type FuturePeriod = "tomorrow" | "next_week" | "next_month";

/**
 * Dates a person says ("今天", "上个月", "下周", "三月", "yesterday", "in March"), resolved in the
 * workshop's time zone: a named period (the business tools' own, or one still to come), a month,
 * or one day.
 */
export type DateMention =
  | { kind: "period"; period: Period | FuturePeriod }
  | { kind: "day"; date: string }
  | { kind: "month"; month: string };

const FUTURE: ReadonlySet<string> = new Set<FuturePeriod>(["tomorrow", "next_week", "next_month"]);

/** Whether a mention names a period still to come ("明天", "下周", "next month"). */
export function isFuture(date: DateMention | null): date is { kind: "period"; period: FuturePeriod } {
  return date?.kind === "period" && FUTURE.has(date.period);
}

const EN_MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** The workshop's calendar date (`YYYY-MM-DD`) at `now`. */
export function localToday(now: Date, timeZone: string): string {
  const parts = new Map(
    new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.get("year")}-${parts.get("month")}-${parts.get("day")}`;
}

function shiftDay(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

// "三月" said in November is this March; said in February it is last year's.
function latestMonth(month: number, today: string): string {
  const year = Number(today.slice(0, 4));
  const current = Number(today.slice(5, 7));
  return `${month <= current ? year : year - 1}-${String(month).padStart(2, "0")}`;
}

/** The first date the text mentions, or `null`. */
export function findDate(text: string, today: string): DateMention | null {
  const lower = text.toLowerCase();
  if (/今天|今日|\btoday\b/.test(lower)) return { kind: "period", period: "today" };
  if (/明天|明日|\btomorrow\b/.test(lower)) return { kind: "period", period: "tomorrow" };
  if (/前天|day before yesterday/.test(lower)) return { kind: "day", date: shiftDay(today, -2) };
  if (/昨天|昨日|\byesterday\b/.test(lower)) return { kind: "period", period: "yesterday" };
  if (/这周|本周|这个星期|这礼拜|\bthis week\b/.test(lower)) return { kind: "period", period: "this_week" };
  if (/上周|上个星期|上礼拜|\blast week\b/.test(lower)) return { kind: "period", period: "last_week" };
  if (/下周|下个星期|下星期|下礼拜|\bnext week\b/.test(lower)) return { kind: "period", period: "next_week" };
  if (/这个月|本月|这月|\bthis month\b/.test(lower)) return { kind: "period", period: "this_month" };
  if (/上个月|上月|\blast month\b/.test(lower)) return { kind: "period", period: "last_month" };
  if (/下个月|下月|\bnext month\b/.test(lower)) return { kind: "period", period: "next_month" };
  const cn = /(十[一二]|[一二三四五六七八九十]|1[0-2]|[1-9])\s*月(?!\s*[0-9一二三四五六七八九十]+\s*[日号])/.exec(text);
  // The pattern admits only 1 to 12, in digits or numerals ("十一"), so the number is a month.
  const month = cn?.[1] ? parseNumber(cn[1]) : null;
  if (month) return { kind: "month", month: latestMonth(month, today) };
  const en = new RegExp(`\\b(${EN_MONTHS.join("|")})\\b`).exec(lower);
  if (en?.[1]) return { kind: "month", month: latestMonth(EN_MONTHS.indexOf(en[1]) + 1, today) };
  return null;
}
