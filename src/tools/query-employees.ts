import { z } from "zod";
import { listEmployees } from "../business/employees.ts";
import { callerOf } from "../business/workshop.ts";
import { pageFields, READ_ONLY, WorkshopClockSchema } from "./business-fields.ts";
import { defineTool } from "./tool.ts";

/** The workshop's employees (a boss sees all; staff see themselves). */
export const queryEmployeesTool = defineTool({
  name: "query_employees",
  title: "List employees",
  description:
    "List the workshop's employees (员工) with their employee number (工号) and whether they have left. A boss sees " +
    "everyone; staff see only themselves. Use it to find who someone is before asking about their pieces or pay.",
  inputSchema: z.object({
    name_contains: z.string().trim().min(1).max(50).optional().describe("Only employees whose name contains this text."),
    status: z.enum(["active", "left"]).optional().describe("active (在职) or left (已离职). Omit for both."),
    ...pageFields,
  }),
  outputSchema: z.object({
    employees: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        employee_no: z.string(),
        status: z.enum(["active", "left"]),
        left_on: z.string().nullable(),
        has_login: z.boolean(),
        phone: z.string().nullable().optional(),
      }),
    ),
    total: z.number().int(),
    next_cursor: z.string().nullable(),
    ...WorkshopClockSchema,
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
    return {
      kind: "result",
      structured: {
        employees: result.items,
        total: result.total,
        next_cursor: result.next_cursor,
        today: caller.today,
        time_zone: caller.timeZone,
      },
    };
  },
});
