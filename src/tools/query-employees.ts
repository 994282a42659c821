import { z } from "zod";
import { listEmployees } from "../business/employees.ts";
import { callerOf } from "../business/workshop.ts";
import { AppliedSchema, ClockSchema, count, filterWords } from "./applied.ts";
import { pageFields, READ_ONLY } from "./business-fields.ts";
import { defineTool } from "./tool.ts";
import { pick, said } from "./words.ts";

const FIELD_WORDS = { ...pick("name_contains", "status"), status: said("在职状态", "status") };

/** The workshop's employees (a boss sees all; staff see themselves). */
export const queryEmployeesTool = defineTool({
  name: "query_employees",
  words: {
    title: said("查员工", "Look up employees"),
    icon: "records",
    fields: { ...FIELD_WORDS, ...pick("active", "left") },
    results: {
      ...pick("name", "employee_no", "status", "active", "left", "employees", "totals"),
      left_on: said("离职日期", "left on"),
      phone: said("电话", "phone"),
      has_login: said("能登录", "has a login"),
    },
    lists: { employees: said("员工", "employees") },
    offer: said("查员工（例如：“有哪些员工”）", 'employees ("list employees")'),
  },
  description:
    "The workshop's employees (员工): name, 工号, whether they have left or can sign in, and for a boss their phone " +
    "numbers. A boss sees everyone, staff themselves.",
  inputSchema: z.object({
    name_contains: z.string().trim().min(1).max(50).optional().describe("Part of the name."),
    status: z.enum(["active", "left"]).optional().describe("在职 or 已离职; both when left out."),
    ...pageFields,
  }),
  outputSchema: z.object({
    ...AppliedSchema,
    totals: z.object({ employees: z.number().int() }),
    employees: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        employee_no: z.string(),
        status: z.enum(["active", "left"]),
        left_on: z.string().nullable(),
        has_login: z.boolean(),
        phone: z.string().nullable().optional().describe("A boss's answer only."),
      }),
    ),
    next_cursor: z.string().nullable(),
    ...ClockSchema,
  }),
  annotations: READ_ONLY,
  async run(ctx, input) {
    const business = ctx.services.business;
    const caller = await callerOf({ business, user: ctx.user });
    const result = await listEmployees({
      business,
      caller,
      nameContains: input.name_contains,
      status: input.status,
      limit: input.limit,
      cursor: input.cursor,
    });
    const filters: Record<string, string> = {};
    if (input.name_contains) filters.name_contains = input.name_contains;
    if (input.status) filters.status = input.status === "active" ? "在职" : "已离职";
    const assumptions = caller.seesAll ? [] : ["员工只能看自己的资料"];
    const summary = `${filterWords(filters, FIELD_WORDS) || (caller.seesAll ? "全车间" : "你自己")}，当前：共 ${count(result.total)} 人。`;
    const structured = {
      summary,
      period: { name: "current" as const, from: caller.today, to: caller.today, in_progress: true },
      filters,
      assumptions,
      totals: { employees: result.total },
      employees: result.items,
      next_cursor: result.next_cursor,
      today: caller.today,
      time_zone: caller.timeZone,
    };
    return { kind: "result", structured, text: summary };
  },
});
