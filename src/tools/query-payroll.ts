import { z } from "zod";
import { employeeFilter } from "../business/filters.ts";
import { PAYROLL_SORTS, type Payslip, queryPayroll } from "../business/payroll.ts";
import { callerOf } from "../business/workshop.ts";
import { AppError } from "../errors.ts";
import { AppliedSchema, ClockSchema, count, filterWords, money, monthPeriod, periodWords } from "./applied.ts";
import { MoneySchema, monthField, nameField, pageFields, READ_ONLY, topField } from "./business-fields.ts";
import { defineTool } from "./tool.ts";
import { pick, said } from "./words.ts";

const FIELD_WORDS = pick("employee", "period", "month", "sort_by", "top", "with_lines");

/** Monthly payroll per employee, scoped by role. */
export const queryPayrollTool = defineTool({
  name: "query_payroll",
  words: {
    title: said("查工资", "Look up payroll"),
    icon: "records",
    fields: { ...FIELD_WORDS, ...pick("this_month", "last_month") },
    results: {
      ...pick("employee", "employee_no", "pieces", "net_pay", "unit_price", "amount", "process", "month", "employees", "totals"),
      piece_wage: said("计件工资", "piece wage"),
      allowances: said("补贴", "allowances"),
      deductions: said("扣款", "deductions"),
      reason: said("原因", "reason"),
    },
    lists: {
      payslips: said("工资单", "payslips"),
      lines: said("工序明细", "lines"),
      adjustments: said("补贴扣款", "adjustments"),
    },
    offer: {
      ...said("查工资（例如：“张敏这个月的工资”）", 'payroll ("payroll for this month")'),
      own: said("查工资（例如：“我这个月的工资”）", 'payroll ("my payroll for this month")'),
    },
  },
  description:
    "Monthly pay (工资) per employee: piece wage (计件工资, Σ quantity × the unit price recorded), allowances (补贴) " +
    "and deductions (扣款) with reasons, net pay (实发, what is paid). This month unless period or month says " +
    "otherwise (三月: month YYYY-03). A boss sees all, staff their own. At most about 4,000 characters by default " +
    "(10 payslips).",
  inputSchema: z.object({
    period: z.enum(["this_month", "last_month"]).optional().describe("In the workshop's time zone."),
    month: monthField.optional(),
    employee: nameField("Name, 工号 or id.").optional(),
    sort_by: z.enum(PAYROLL_SORTS).optional().describe("employee_no (default), or largest first."),
    top: topField,
    with_lines: z.boolean().default(false).describe("Pieces per process and unit price."),
    ...pageFields,
  }),
  outputSchema: z.object({
    ...AppliedSchema,
    month: z.string(),
    totals: z.object({
      employees: z.number().int(),
      pieces: z.number().int(),
      piece_wage: MoneySchema,
      allowances: MoneySchema,
      deductions: MoneySchema,
      net_pay: MoneySchema,
    }),
    payslips: z.array(
      z.object({
        employee: z.object({ id: z.string(), name: z.string(), employee_no: z.string() }),
        pieces: z.number().int(),
        piece_wage: MoneySchema,
        allowances: MoneySchema,
        deductions: MoneySchema,
        net_pay: MoneySchema,
        adjustments: z.array(
          z.object({ id: z.string(), kind: z.enum(["allowance", "deduction"]), amount: MoneySchema, reason: z.string() }),
        ),
        lines: z
          .array(
            z.object({
              process: z.object({ id: z.string(), name: z.string(), style_code: z.string() }),
              unit_price: MoneySchema,
              pieces: z.number().int(),
              amount: MoneySchema,
            }),
          )
          .optional(),
      }),
    ),
    scope: z.enum(["workshop", "own"]),
    next_cursor: z.string().nullable(),
    ...ClockSchema,
  }),
  annotations: READ_ONLY,
  async run(ctx, input) {
    const business = ctx.services.business;
    const caller = await callerOf({ business, user: ctx.user });
    if (input.period && input.month) throw new AppError("invalid_input", "Give period or month, not both.");
    const { month, period } = monthPeriod({ period: input.period, month: input.month, today: caller.today });
    const employee = await employeeFilter({ business, caller, employee: input.employee });
    const result = await queryPayroll({
      business,
      tenantId: business.tenantId,
      month,
      employeeId: employee?.ids[0],
      sortBy: input.sort_by,
      top: input.top,
      withLines: input.with_lines,
      limit: input.limit,
      cursor: input.cursor,
    });
    const filters: Record<string, string> = employee ? { employee: employee.label } : {};
    const assumptions = [
      ...(employee?.readFrom ? [`把“${employee.readFrom}”当作 ${employee.label}`] : []),
      ...(caller.seesAll ? [] : ["员工只能看自己的工资"]),
      ...(input.period || input.month ? [] : ["没有说月份，按本月计算"]),
    ];
    const when = periodWords(period, caller.today);
    // Staff ask about themselves, so their answer is said to them (你); the filter names them still.
    const who = caller.seesAll ? filterWords(filters, FIELD_WORDS) || "全车间" : "你";
    const summary = `${who}，${when}：${paySentence(result.items, result.totals, caller.seesAll && !employee)}`;
    const structured = {
      summary,
      period,
      filters,
      assumptions,
      month,
      totals: result.totals,
      payslips: result.items,
      scope: caller.seesAll ? ("workshop" as const) : ("own" as const),
      next_cursor: result.next_cursor,
      today: caller.today,
      time_zone: caller.timeZone,
    };
    return { kind: "result", structured, text: summary };
  },
});

// One person: 实发 and how it adds up (by name unless the filter named them); several: how many,
// the sum, and the first listed.
function paySentence(slips: Payslip[], totals: { employees: number; net_pay: { cents: number } }, named: boolean): string {
  const [first] = slips;
  if (totals.employees === 0 || !first) return "没有计件记录，也没有补贴或扣款，实发 0.00 元。";
  if (totals.employees === 1) {
    return (
      `${named ? `${first.employee.name} ` : ""}实发 ${money(first.net_pay.cents)}（计件 ${count(first.pieces)} 件 ${money(first.piece_wage.cents)}` +
      ` + 补贴 ${money(first.allowances.cents)} − 扣款 ${money(first.deductions.cents)}）。`
    );
  }
  return `共 ${totals.employees} 人，实发合计 ${money(totals.net_pay.cents)}；列在最前的 ${first.employee.name} 实发 ${money(first.net_pay.cents)}。`;
}
