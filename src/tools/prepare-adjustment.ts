import { z } from "zod";
import { ADJUSTMENT_CHANGES, ADJUSTMENT_KINDS, prepareAdjustment } from "../business/adjustment-changes.ts";
import { LEAST_ROLE } from "../permissions.ts";
import { ActionResultSchema } from "./action-results.ts";
import { monthField, nameField, WRITES } from "./business-fields.ts";
import { held } from "./held.ts";
import { defineTool } from "./tool.ts";
import { pick, said } from "./words.ts";

/** Enters a 补贴 or 扣款, or takes one back (boss): checks and previews, writes nothing. */
export const prepareAdjustmentTool = defineTool({
  name: "prepare_adjustment",
  words: {
    title: said("准备补贴或扣款", "Prepare an allowance or deduction"),
    icon: "write",
    lists: { preview: said("预览", "preview"), ambiguities: said("待确定", "still open") },
    fields: {
      ...pick("employee", "month", "amount"),
      change: said("变更", "change"),
      kind: said("类型", "kind"),
      reason: said("原因", "reason"),
      adjustment: said("哪一笔", "which one"),
      add: said("新增", "add"),
      remove: said("撤销", "take back"),
      allowance: said("补贴", "allowance"),
      deduction: said("扣款", "deduction"),
    },
    results: { ...pick("employee", "month", "amount"), kind: said("类型", "kind"), reason: said("原因", "reason") },
    offer: said("记补贴和扣款（例如：“给李娟这个月加50块全勤奖”“扣张敏20块”）", 'allowances and deductions ("50 attendance bonus for Li Juan")'),
  },
  description:
    "Prepare a 补贴 (allowance) or 扣款 (deduction) for an employee and month, boss only, or remove one by id " +
    "(query_payroll lists them).",
  inputSchema: z.object({
    change: z.enum(ADJUSTMENT_CHANGES).default("add").describe("What to do."),
    employee: nameField("Name, 工号 or id.").optional(),
    kind: z.enum(ADJUSTMENT_KINDS).optional().describe("补贴 or 扣款."),
    amount: z.number().min(0.01).max(100_000).optional().describe("元."),
    month: monthField.optional(),
    reason: z.string().max(100).optional().describe("全勤奖, 迟到…"),
    adjustment: nameField("Id, to remove.").optional(),
  }),
  outputSchema: ActionResultSchema,
  minRole: LEAST_ROLE["business:manage"],
  prepares: "adjustment",
  annotations: WRITES,
  run: async (ctx, input) => held(ctx, await prepareAdjustment({ business: ctx.services.business, user: ctx.user, input })),
});
