import { z } from "zod";
import { isCalendarDate, PERIODS } from "../business/local-time.ts";

// Fields and output shapes shared by the business tools, so every tool says them the same way.

/**
 * A name, number or id as a person gives it; matched forgivingly inside the caller's workshop. Long
 * enough for every id a tool hands out as a choice (an order confirmed in Weft is `ord-` and 64 hex).
 */
export const nameField = (what: string) => z.string().trim().min(1).max(100).describe(what);

export const dateField = (what: string) =>
  z.string().refine(isCalendarDate, "must be a real date written YYYY-MM-DD").describe(what);

export const monthField = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, "must be YYYY-MM")
  .describe("YYYY-MM (三月: 2026-03).");

/** Rows a page of a list holds by default: small enough for a model's context. */
export const DEFAULT_ROWS = 10;

export const pageFields = {
  limit: z.number().int().min(1).max(100).default(DEFAULT_ROWS).describe("Rows a page."),
  // Its length is checked where it is read (`decodeCursor`), like everything else about it.
  cursor: z.string().optional().describe("next_cursor, for the next page."),
};

/** Only the first few rows of a ranking, after sorting; no cursor. */
export const topField = z.number().int().min(1).max(100).optional().describe("Only the first N after sort_by; no cursor.");

export const dateFilterFields = {
  period: z.enum(PERIODS).optional().describe("In the workshop's time zone."),
  month: monthField.optional(),
  date_from: dateField("YYYY-MM-DD").optional(),
  date_to: dateField("YYYY-MM-DD").optional(),
};

/** An amount of money: integer cents (分) and the same in yuan, two decimals. Every amount has this shape. */
export const MoneySchema = z.object({ cents: z.number().int(), yuan: z.string() }).meta({ id: "money" });

// Annotations say what differs from MCP's defaults (a tool may write, destroy, and reach the open
// world; it is not idempotent): the spec reads the destructive and idempotent hints only on writes.

/** A read of the workshop's own records. */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

/** A change inside Weft that destroys nothing: a prepared write, a consultation's step. */
export const WRITES = { readOnlyHint: false, destructiveHint: false, openWorldHint: false } as const;

/** Deciding a prepared write: doing it twice does what once does. */
export const DECIDES = { ...WRITES, idempotentHint: true } as const;
