import { AppError } from "../errors.ts";
import { log } from "../log.ts";

const formatters = new Map<string, Intl.DateTimeFormat>();
const refusedZones = new Set<string>();

/** Where no workshop says otherwise, "today" is Shanghai's. */
export const DEFAULT_TIME_ZONE = "Asia/Shanghai";

/**
 * The time zone a workshop's dates are read in: its stored one when the runtime knows it, else the
 * default. Operators set the column in SQL (no route writes it), so a typo or an empty value must
 * not turn every business question into a 500; it is logged, once per isolate and zone, instead.
 */
export function workshopTimeZone(stored: string | null | undefined): string {
  if (!stored) return DEFAULT_TIME_ZONE;
  if (formatters.has(stored)) return stored;
  try {
    localDate(new Date(0), stored);
    return stored;
  } catch {
    if (!refusedZones.has(stored)) {
      refusedZones.add(stored);
      log("warn", "workshop_time_zone_unknown", { time_zone: stored.slice(0, 100), used: DEFAULT_TIME_ZONE });
    }
    return DEFAULT_TIME_ZONE;
  }
}

/**
 * The calendar date (`YYYY-MM-DD`) at `now` in the workshop's time zone: "today" and "this month"
 * are the workshop's, not UTC's.
 */
export function localDate(now: Date, timeZone: string): string {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    formatters.set(timeZone, format);
  }
  const parts = new Map(format.formatToParts(now).map((p) => [p.type, p.value]));
  return `${parts.get("year")}-${parts.get("month")}-${parts.get("day")}`;
}

const clockFormatters = new Map<string, Intl.DateTimeFormat>();

// How far the zone's wall clock is ahead of UTC at an instant of whole seconds, in milliseconds.
function offsetAt(instant: number, timeZone: string): number {
  let format = clockFormatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    clockFormatters.set(timeZone, format);
  }
  const parts = new Map(format.formatToParts(new Date(instant)).map((p) => [p.type, Number(p.value)]));
  const wall = Date.UTC(
    parts.get("year") ?? 0,
    (parts.get("month") ?? 1) - 1,
    parts.get("day") ?? 1,
    parts.get("hour") ?? 0,
    parts.get("minute") ?? 0,
    parts.get("second") ?? 0,
  );
  return wall - instant;
}

/**
 * The workshop's wall clock at an instant, to the minute (`YYYY-MM-DD HH:MM`): the time its people
 * read, where UTC would read as the evening before in China.
 *
 * @example localMinute(new Date("2026-11-28T02:05:00Z"), "Asia/Shanghai") // "2026-11-28 10:05"
 */
export function localMinute(instant: Date, timeZone: string): string {
  const second = Math.floor(instant.getTime() / 1000) * 1000;
  return new Date(second + offsetAt(second, timeZone)).toISOString().slice(0, 16).replace("T", " ");
}

/**
 * The instant a workshop-local day begins, written as D1 stores `created_at`
 * (`strftime('%Y-%m-%dT%H:%M:%fZ')`, UTC), so that a day range of local dates compares with it as
 * text. The offset is read twice because it may differ between UTC midnight and local midnight
 * across a daylight-saving change; where the clocks skip midnight itself (America/Santiago in
 * September), the day begins at the first minute that is on it.
 *
 * @example dayStartUtc("2026-12-01", "Asia/Shanghai") // "2026-11-30T16:00:00.000Z"
 */
export function dayStartUtc(date: string, timeZone: string): string {
  const midnight = Date.parse(`${date}T00:00:00Z`);
  const start = midnight - offsetAt(midnight - offsetAt(midnight, timeZone), timeZone);
  if (localDate(new Date(start), timeZone) === date) return new Date(start).toISOString();
  // Midnight does not exist that day: find the skip, at most three hours on, to the minute.
  let before = 0;
  let after = 180;
  while (after - before > 1) {
    const minute = Math.floor((before + after) / 2);
    if (localDate(new Date(start + minute * 60_000), timeZone) === date) after = minute;
    else before = minute;
  }
  return new Date(start + after * 60_000).toISOString();
}

/** Refuses a range of dates whose first day comes after its last, rather than finding nothing. */
export function checkDateOrder(from: string | undefined, to: string | undefined, names: [string, string]): void {
  if (from && to && from > to) throw new AppError("invalid_input", `${names[0]} (${from}) is after ${names[1]} (${to}).`);
}

/** Whether `YYYY-MM-DD` names a real calendar day. */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}

/** The day `days` after (or before, when negative) a `YYYY-MM-DD` date. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The `YYYY-MM` month `months` after (or before) the month of a date or month. */
export function addMonths(monthOrDate: string, months: number): string {
  const year = Number(monthOrDate.slice(0, 4));
  const month = Number(monthOrDate.slice(5, 7)) - 1 + months;
  const d = new Date(Date.UTC(year, month, 1));
  return d.toISOString().slice(0, 7);
}

/** First and last day of a `YYYY-MM` month. */
export function monthRange(month: string): DateRange {
  return { from: `${month}-01`, to: addDays(`${addMonths(month, 1)}-01`, -1) };
}

/** An inclusive range of workshop-local dates. */
export interface DateRange {
  from: string;
  to: string;
}

export const PERIODS = ["today", "yesterday", "this_week", "last_week", "this_month", "last_month"] as const;
export type Period = (typeof PERIODS)[number];

/**
 * The week `weeks` after (or before, when negative) the one `today` is in. Weeks start on Monday,
 * for every tool and the chat alike.
 *
 * @example weekRange("2026-11-26", 1) // { from: "2026-11-30", to: "2026-12-06" }
 */
export function weekRange(today: string, weeks: number): DateRange {
  const monday = addDays(today, 7 * weeks - ((new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7));
  return { from: monday, to: addDays(monday, 6) };
}

/** The dates a named period covers, seen from the workshop's `today`. */
export function periodRange(period: Period, today: string): DateRange {
  switch (period) {
    case "today":
      return { from: today, to: today };
    case "yesterday":
      return { from: addDays(today, -1), to: addDays(today, -1) };
    case "this_week":
      return weekRange(today, 0);
    case "last_week":
      return weekRange(today, -1);
    case "this_month":
      return monthRange(today.slice(0, 7));
    case "last_month":
      return monthRange(addMonths(today, -1));
  }
}

/**
 * The date range a query asks for: a named period, a month, or explicit bounds; at most one of
 * them. `null` when none is given (no date filter).
 */
export function resolveDates(
  input: {
    period?: Period | undefined;
    month?: string | undefined;
    date_from?: string | undefined;
    date_to?: string | undefined;
  },
  today: string,
): DateRange | null {
  const given = [input.period, input.month, input.date_from ?? input.date_to].filter((v) => v !== undefined).length;
  if (given > 1) {
    throw new AppError("invalid_input", "Give at most one of period, month, or date_from/date_to.");
  }
  if (input.period) return periodRange(input.period, today);
  if (input.month) return monthRange(input.month);
  if (input.date_from || input.date_to) {
    const range = { from: input.date_from ?? "0000-01-01", to: input.date_to ?? "9999-12-31" };
    if (range.from > range.to) throw new AppError("invalid_input", "date_from is after date_to.");
    return range;
  }
  return null;
}
