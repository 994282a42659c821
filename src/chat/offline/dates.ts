import { addDays, addMonths, type Period, weekRange } from "../../business/local-time.ts";
import { parseNumber } from "./numbers.ts";

/** Periods still to come: what a due date may name, though no piece record or payslip has them yet. */
export type FuturePeriod = "tomorrow" | "next_week" | "next_month";

/**
 * Dates a person says ("今天", "上个月", "下周", "三月", "2026年3月", "上上周", "yesterday", "in March"),
 * resolved in the workshop's time zone: a named period (the business tools' own, or one still to
 * come), a month (`yearSaid` when its year was said or follows from the words, not guessed), a
 * range of days (a week the tools have no name for), or one day.
 */
export type DateMention =
  | { kind: "period"; period: Period | FuturePeriod }
  | { kind: "day"; date: string; yearless?: true }
  | { kind: "range"; from: string; to: string }
  | { kind: "month"; month: string; yearSaid?: true };

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

const MONTH = "(十[一二]|[一二三四五六七八九十]|1[0-2]|[1-9])\\s*月(?!\\s*[0-9一二三四五六七八九十]+\\s*[日号])";
// A month with its year: "2026年3月", "明年三月", "去年12月".
const YEAR_MONTH = new RegExp(`((?<!\\d)(?:19|20)\\d{2}|今|明|去)\\s*年\\s*${MONTH}`);
const YEAR_OFFSETS = new Map([
  ["今", 0],
  ["明", 1],
  ["去", -1],
]);

// Two weeks or months away ("上上周", "下下个月"): checked before "上周" and "下个月", which they contain.
function twoAway(lower: string, today: string): DateMention | null {
  const week = (weeks: number): DateMention => ({ kind: "range", ...weekRange(today, weeks) });
  const month = (months: number): DateMention => ({ kind: "month", month: addMonths(today, months), yearSaid: true });
  if (/上上周|上上个?星期|上上个?礼拜|\bweek before last\b/.test(lower)) return week(-2);
  if (/下下周|下下个?星期|下下个?礼拜|\bweek after next\b/.test(lower)) return week(2);
  if (/上上个?月|\bmonth before last\b/.test(lower)) return month(-2);
  if (/下下个?月|\bmonth after next\b/.test(lower)) return month(2);
  return null;
}

// A month said with its year, which is then the month meant, whether past or to come.
function yearMonth(text: string, today: string): DateMention | null {
  const match = YEAR_MONTH.exec(text);
  const month = match?.[2] ? parseNumber(match[2]) : null;
  if (!match?.[1] || !month) return null;
  const offset = YEAR_OFFSETS.get(match[1]);
  const year = offset === undefined ? Number(match[1]) : Number(today.slice(0, 4)) + offset;
  return { kind: "month", month: `${year}-${String(month).padStart(2, "0")}`, yearSaid: true };
}

// A day of a week ("上周五", "这周三", "星期一", "下礼拜二"); not the 一 of "这周一共" or "周一下".
const WEEKDAY = /(上上|下下|上|下|这|本)?(?:个)?(?:周|星期|礼拜)([一二三四五六日天])(?![共起下些点十百千件个])/;
const WEEKDAY_INDEX = "一二三四五六日";
const WEEK_OFFSETS = new Map([
  ["上上", -2],
  ["上", -1],
  ["这", 0],
  ["本", 0],
  ["下", 1],
  ["下下", 2],
]);

// A weekday without a week ("周五做的") is the latest such day up to today: work is told after it is done.
function weekday(text: string, today: string): DateMention | null {
  const match = WEEKDAY.exec(text);
  if (!match?.[2]) return null;
  const index = match[2] === "天" ? 6 : WEEKDAY_INDEX.indexOf(match[2]);
  const said = match[1] === undefined ? undefined : WEEK_OFFSETS.get(match[1]);
  const date = addDays(weekRange(today, said ?? 0).from, index);
  return { kind: "day", date: said === undefined && date > today ? addDays(date, -7) : date };
}

// A day with its month ("12月20日", "十一月二十号") or its year too ("2026-11-20", "2026年11月20日").
const MONTH_DAY =
  /(?:((?:19|20)\d{2})\s*年\s*)?([0-9]{1,2}|十[一二]?|[一二三四五六七八九])\s*月\s*([0-9]{1,2}|[一二三]?十[一二三四五六七八九]?|[一二三四五六七八九])\s*[日号]/;
const ISO_DAY = /(?<![\d-])(20\d{2})-(\d{1,2})-(\d{1,2})(?![\d-])/;

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

// Without its year the day is the latest such day up to today (work done, pay earned); a due date
// reads it forward instead (`yearless` says so).
function monthDay(text: string, today: string): DateMention | null {
  const iso = ISO_DAY.exec(text);
  if (iso) return { kind: "day", date: `${iso[1]}-${pad(Number(iso[2]))}-${pad(Number(iso[3]))}` };
  const match = MONTH_DAY.exec(text);
  const month = match?.[2] ? parseNumber(match[2]) : null;
  const day = match?.[3] ? parseNumber(match[3]) : null;
  if (!match || !month || !day || month > 12 || day > 31) return null;
  if (match[1]) return { kind: "day", date: `${match[1]}-${pad(month)}-${pad(day)}` };
  const year = Number(today.slice(0, 4));
  const thisYear = `${year}-${pad(month)}-${pad(day)}`;
  return { kind: "day", date: thisYear <= today ? thisYear : `${year - 1}-${pad(month)}-${pad(day)}`, yearless: true };
}

/**
 * The words of a date as a person says them, in one pattern: what a follow-up swaps in for the
 * earlier request's ("上个月呢"), and where each period of a comparison stands. The longest first, so
 * 上个月 is not read as 上月.
 */
export const DATE_WORDS =
  /上上周|下下周|上上个月|下下个月|今天|今日|昨天|昨日|前天|明天|这周|本周|上周[一二三四五六日天]?|下周[一二三四五六日天]?|这个月|本月|这月|上个月|上月|下个月|下月|(?:\d{4}年)?\d{1,2}月(?:\d{1,2}[日号])?|[一二三四五六七八九十]{1,2}月|\b(?:today|yesterday|this week|last week|next week|this month|last month|next month)\b/gi;

/** Every date the text mentions, in the order said, each with where it starts. */
export function datesIn(text: string, today: string): { at: number; date: DateMention }[] {
  const found: { at: number; date: DateMention }[] = [];
  for (const match of text.matchAll(new RegExp(DATE_WORDS.source, "gi"))) {
    const date = findDate(match[0], today);
    if (date) found.push({ at: match.index, date });
  }
  return found;
}

/** The first date the text mentions, or `null`. */
export function findDate(text: string, today: string): DateMention | null {
  const lower = text.toLowerCase();
  const day = monthDay(text, today) ?? weekday(text, today);
  if (day) return day;
  const far = twoAway(lower, today);
  if (far) return far;
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
  const withYear = yearMonth(text, today);
  if (withYear) return withYear;
  const cn = new RegExp(MONTH).exec(text);
  // The pattern admits only 1 to 12, in digits or numerals ("十一"), so the number is a month.
  const month = cn?.[1] ? parseNumber(cn[1]) : null;
  if (month) return { kind: "month", month: latestMonth(month, today) };
  const en = new RegExp(`\\b(${EN_MONTHS.join("|")})\\b`).exec(lower);
  if (en?.[1]) return { kind: "month", month: latestMonth(EN_MONTHS.indexOf(en[1]) + 1, today) };
  return null;
}
