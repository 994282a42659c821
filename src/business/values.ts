import { AppError } from "../errors.ts";
import { firstUnprintable } from "../printable.ts";
import { MAX_CENTS } from "./prices.ts";

// The values a workshop's own data holds, checked the same way whether a tool, a settings form or
// an imported sheet gives them. Each check answers `invalid_input` naming the field.

/** Money given in yuan (0.8, 50) as cents, exactly: at most two decimals, from `min` to 100,000 元. */
export function centsOf(yuan: number, field: string, { min = 0 }: { min?: number } = {}): number {
  const cents = Math.round(yuan * 100);
  if (!Number.isFinite(yuan) || Math.abs(yuan * 100 - cents) > 1e-6) {
    throw new AppError("invalid_input", `${field}: ${yuan} has more than two decimals; money is kept in 分 (0.01 元).`);
  }
  if (cents < min || cents > MAX_CENTS) {
    throw new AppError("invalid_input", `${field}: ${yuan} 元 is outside ${min / 100}–${MAX_CENTS / 100} 元.`);
  }
  return cents;
}

// A cell's price as workshops write it: 0.8, 0.80, ¥0.8, 0.8元, 1,200.00 (commas grouping digits).
const YUAN_CELL = /^[¥￥]?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?\s*(?:元(?:\/件)?)?$/;

/** A price written in a sheet's cell, as cents; `null` when it is not one (the caller names the cell). */
export function centsOfCell(text: string): number | null {
  const match = YUAN_CELL.exec(text.trim());
  if (!match) return null;
  const whole = (match[1] ?? "").replaceAll(",", "");
  const fraction = match[2] ?? "";
  if (fraction.length > 2) return null;
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  return cents <= MAX_CENTS ? cents : null;
}

/**
 * A name as people give it (an employee's, a style's, a process's): printable, trimmed, 1 to
 * `max` characters.
 */
export function nameOf(text: string, field: string, max = 50): string {
  const bad = firstUnprintable(text);
  if (bad)
    throw new AppError("invalid_input", `${field}: character ${bad.position} is ${bad.codePoint}, which names may not contain.`);
  const name = text.trim().replace(/\s+/g, " ");
  if (name.length === 0 || [...name].length > max) {
    throw new AppError("invalid_input", `${field}: give 1 to ${max} characters.`);
  }
  return name;
}

const EMPLOYEE_NO = /^[0-9A-Za-z_-]{1,20}$/;

/** An employee's number (工号): 1 to 20 letters, digits, `-` or `_`. */
export function employeeNoOf(text: string, field = "employee_no"): string {
  const no = text.trim();
  if (!EMPLOYEE_NO.test(no))
    throw new AppError("invalid_input", `${field}: '${no.slice(0, 30)}' is not a 工号 (1 to 20 letters, digits, - or _).`);
  return no;
}

/** A style's code (款号), as an employee number is written. */
export function styleCodeOf(text: string, field = "code"): string {
  const code = text.trim();
  if (!EMPLOYEE_NO.test(code))
    throw new AppError("invalid_input", `${field}: '${code.slice(0, 30)}' is not a 款号 (1 to 20 letters, digits, - or _).`);
  return code;
}

/**
 * A phone number as people write it (138 0000 0001, 138-0000-0001, +86 138…), kept as its digits
 * with a leading `+`; the empty text clears it (`null`).
 */
export function phoneOf(text: string, field = "phone"): string | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  const compact = trimmed.replace(/[\s()-]/g, "");
  if (!/^\+?\d{5,20}$/.test(compact)) {
    throw new AppError("invalid_input", `${field}: '${trimmed.slice(0, 30)}' is not a phone number (5 to 20 digits).`);
  }
  return compact;
}

/** A time zone the runtime knows (IANA, `Asia/Shanghai`), in its canonical spelling. */
export function timeZoneOf(text: string, field = "time_zone"): string {
  try {
    return new Intl.DateTimeFormat("en", { timeZone: text.trim() }).resolvedOptions().timeZone;
  } catch {
    throw new AppError(
      "invalid_input",
      `${field}: '${text.slice(0, 60)}' is not a time zone this server knows (IANA, such as Asia/Shanghai).`,
    );
  }
}

/** A free text a person writes (a reason, a note): printable but for line breaks, trimmed, at most `max` characters. */
export function textOf(text: string, field: string, max: number): string {
  const bad = firstUnprintable(text.replace(/[\n\t]/g, " "));
  if (bad) throw new AppError("invalid_input", `${field}: character ${bad.position} is ${bad.codePoint}, which is not text.`);
  const value = text.trim();
  if ([...value].length > max) throw new AppError("invalid_input", `${field}: at most ${max} characters.`);
  return value;
}
