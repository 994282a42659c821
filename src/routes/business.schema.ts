import { z } from "zod";
import { isCalendarDate } from "../business/local-time.ts";
import { prepareAdjustmentTool } from "../tools/prepare-adjustment.ts";
import { prepareEmployeeTool } from "../tools/prepare-employee.ts";
import { prepareOrderUpdateTool } from "../tools/prepare-order-update.ts";
import { prepareProcessTool } from "../tools/prepare-process.ts";
import { prepareProcessPriceTool } from "../tools/prepare-process-price.ts";
import { prepareWorkshopSettingsTool } from "../tools/prepare-workshop-settings.ts";

// A change's body is its tool's input (the one definition of each kind of change), with unknown
// fields refused, as the tool runtime refuses them.

export const EmployeeChangeSchema = z.strictObject(prepareEmployeeTool.inputSchema.shape);
export const ProcessChangeSchema = z.strictObject(prepareProcessTool.inputSchema.shape);
export const PriceChangeSchema = z.strictObject(prepareProcessPriceTool.inputSchema.shape);
export const OrderChangeSchema = z.strictObject(prepareOrderUpdateTool.inputSchema.shape);
export const AdjustmentChangeSchema = z.strictObject(prepareAdjustmentTool.inputSchema.shape);
export const WorkshopChangeSchema = z.strictObject(prepareWorkshopSettingsTool.inputSchema.shape);

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
