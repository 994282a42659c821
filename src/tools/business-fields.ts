import { z } from "zod";
import { isCalendarDate, PERIODS } from "../business/local-time.ts";

// Fields and output shapes shared by the business tools, so every tool says them the same way.

/** A name, number or id as a person gives it; matched forgivingly inside the caller's workshop. */
export const nameField = (what: string) => z.string().trim().min(1).max(50).describe(what);

export const dateField = (what: string) =>
  z.string().refine(isCalendarDate, "must be a real date written YYYY-MM-DD").describe(what);

export const monthField = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, "must be YYYY-MM")
  .describe("A calendar month, YYYY-MM (for 三月 of this year: 2026-03). The workshop's local month.");

export const pageFields = {
  limit: z.number().int().min(1).max(100).default(20).describe("Rows per page (1-100, default 20)."),
  cursor: z.string().max(400).optional().describe("next_cursor from the previous page, unchanged, for the next page."),
};

export const dateFilterFields = {
  period: z
    .enum(PERIODS)
    .optional()
    .describe("A period in the workshop's time zone: today, yesterday, this_week, last_week, this_month, last_month."),
  month: monthField.optional(),
  date_from: dateField("First work date to include, YYYY-MM-DD (with or without date_to).").optional(),
  date_to: dateField("Last work date to include, YYYY-MM-DD.").optional(),
};

export const MoneySchema = z.object({ cents: z.number().int(), yuan: z.string() });

export const RangeSchema = z.object({ from: z.string(), to: z.string() }).nullable();

/** Where "today" is: agents should use these rather than their own clock. */
export const WorkshopClockSchema = {
  today: z.string(),
  time_zone: z.string(),
};

export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
