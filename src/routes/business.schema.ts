import { z } from "zod";
import { isCalendarDate } from "../business/local-time.ts";
import { BusinessChangeInputSchema } from "../tools/prepare-business-change.ts";

/**
 * A change's body is the prepare tool's input (the one definition of every kind of change), with
 * unknown fields refused, as the tool runtime refuses them.
 */
export const BusinessChangeSchema = z.strictObject(BusinessChangeInputSchema.shape);

export const OrdersQuerySchema = z.object({
  status: z.enum(["open", "all"]).default("open").describe("Open orders (待生产, 生产中), or every order."),
});

export const MonthQuerySchema = z.object({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, "must be YYYY-MM")
    .optional()
    .describe("The month (YYYY-MM); the workshop's this month when left out."),
});

/** The form fields of a price list's import besides its file. */
export const PriceImportFieldsSchema = z.object({
  effective_from: z
    .string()
    .refine(isCalendarDate, "must be a real date written YYYY-MM-DD")
    .optional()
    .describe("The day changed prices apply from (today when left out; never a past day)."),
});
