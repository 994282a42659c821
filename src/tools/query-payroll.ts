import { z } from "zod";
import { employeeFilter } from "../business/filters.ts";
import { queryPayroll } from "../business/payroll.ts";
import { callerOf } from "../business/workshop.ts";
import { MoneySchema, monthField, nameField, pageFields, READ_ONLY, WorkshopClockSchema } from "./business-fields.ts";
import { defineTool } from "./tool.ts";

/** Monthly payroll per employee, scoped by role. */
export const queryPayrollTool = defineTool({
  name: "query_payroll",
  title: "Query payroll",
  description:
    "Monthly pay (工资) per employee: piece wage (计件工资 = the sum of quantity × the unit price recorded with each " +
    "piece record), allowances (补贴), deductions (扣款) and net pay (实发 = piece wage + allowances − deductions), " +
    "with lines per process and the adjustments with their reasons. Amounts in cents and yuan. Month defaults to the " +
    "workshop's current month; '三月工资' is month YYYY-03 of the current year. A boss sees everyone (or one employee); " +
    "staff see only their own pay.",
  inputSchema: z.object({
    month: monthField.optional(),
    employee: nameField("Only this employee: name, 工号 or id. Staff may leave it out.").optional(),
    ...pageFields,
  }),
  outputSchema: z.object({
    month: z.string(),
    payslips: z.array(
      z.object({
        employee: z.object({ id: z.string(), name: z.string(), employee_no: z.string() }),
        pieces: z.number().int(),
        piece_wage: MoneySchema,
        allowances: MoneySchema,
        deductions: MoneySchema,
        net_pay: MoneySchema,
        lines: z.array(
          z.object({
            process: z.object({ id: z.string(), name: z.string(), style_code: z.string() }),
            unit_price: MoneySchema,
            pieces: z.number().int(),
            amount: MoneySchema,
          }),
        ),
        adjustments: z.array(
          z.object({ kind: z.enum(["allowance", "deduction"]), kind_label: z.string(), amount: MoneySchema, reason: z.string() }),
        ),
      }),
    ),
    totals: z.object({
      employees: z.number().int(),
      pieces: z.number().int(),
      piece_wage: MoneySchema,
      allowances: MoneySchema,
      deductions: MoneySchema,
      net_pay: MoneySchema,
    }),
    scope: z.enum(["workshop", "own"]),
    next_cursor: z.string().nullable(),
    ...WorkshopClockSchema,
  }),
  annotations: READ_ONLY,
  async run(ctx, input) {
    const business = ctx.services.business;
    const caller = await callerOf({ business, user: ctx.user });
    const month = input.month ?? caller.today.slice(0, 7);
    const result = await queryPayroll({
      business,
      tenantId: business.tenantId,
      month,
      employeeId: await employeeFilter({ business, caller, employee: input.employee }),
      limit: input.limit,
      cursor: input.cursor,
    });
    return {
      kind: "result",
      structured: {
        month,
        payslips: result.items,
        totals: result.totals,
        scope: caller.seesAll ? ("workshop" as const) : ("own" as const),
        next_cursor: result.next_cursor,
        today: caller.today,
        time_zone: caller.timeZone,
      },
    };
  },
});
