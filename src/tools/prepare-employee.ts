import { z } from "zod";
import { EMPLOYEE_CHANGES, prepareEmployee } from "../business/employee-changes.ts";
import { LEAST_ROLE } from "../permissions.ts";
import { ActionResultSchema } from "./action-results.ts";
import { dateField, nameField, WRITES } from "./business-fields.ts";
import { held } from "./held.ts";
import { defineTool } from "./tool.ts";
import { pick, said } from "./words.ts";

/** Adds an employee or changes one (boss): checks and previews, writes nothing. */
export const prepareEmployeeTool = defineTool({
  name: "prepare_employee",
  words: {
    title: said("准备员工变更", "Prepare an employee change"),
    icon: "write",
    lists: { preview: said("预览", "preview"), ambiguities: said("待确定", "still open") },
    fields: {
      ...pick("employee", "name", "employee_no"),
      change: said("变更", "change"),
      phone: said("电话", "phone"),
      date: said("离职日期", "date left"),
      add: said("新增", "add"),
      edit: said("修改", "edit"),
      leave: said("离职", "leave"),
      rejoin: said("复职", "rejoin"),
    },
    results: { ...pick("name", "employee_no", "status"), phone: said("电话", "phone"), left_on: said("离职日期", "left on") },
    offer: said("管员工（例如：“新来了一个员工叫王强，电话13800000000”，你确认后才写入）", 'employees ("add Wang Qiang, phone 138…", confirmed by you)'),
  },
  description:
    "Prepare a change to employees (员工), boss only: add (工号 generated if not given), edit name/工号/phone, leave " +
    "(离职; records stay) or rejoin.",
  inputSchema: z.object({
    change: z.enum(EMPLOYEE_CHANGES).describe("What to do."),
    employee: nameField("Who: name, 工号 or id.").optional(),
    name: z.string().max(50).optional().describe("姓名."),
    employee_no: z.string().max(20).optional().describe("工号."),
    phone: z.string().max(30).optional().describe("电话; empty clears it."),
    date: dateField("离职日期; today when left out.").optional(),
  }),
  outputSchema: ActionResultSchema,
  minRole: LEAST_ROLE["business:manage"],
  prepares: "employee",
  annotations: WRITES,
  run: async (ctx, input) => held(ctx, await prepareEmployee({ business: ctx.services.business, user: ctx.user, input })),
});
