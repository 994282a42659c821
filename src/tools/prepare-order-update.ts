import { z } from "zod";
import { prepareOrderUpdate } from "../business/order-changes.ts";
import { ORDER_STATUSES } from "../business/orders.ts";
import { LEAST_ROLE } from "../permissions.ts";
import { ActionResultSchema } from "./action-results.ts";
import { dateField, nameField, WRITES } from "./business-fields.ts";
import { held } from "./held.ts";
import { defineTool } from "./tool.ts";
import { pick, said } from "./words.ts";

/** Moves an order along its statuses or changes its details (boss): checks and previews, writes nothing. */
export const prepareOrderUpdateTool = defineTool({
  name: "prepare_order_update",
  words: {
    title: said("准备修改订单", "Prepare an order change"),
    icon: "write",
    lists: { preview: said("预览", "preview"), ambiguities: said("待确定", "still open") },
    fields: { ...pick("order", "status", "quantity", "due_date", "note"), reason: said("原因", "reason") },
    results: { ...pick("status", "quantity", "due_date", "note"), cancel_reason: said("取消原因", "reason cancelled") },
    offer: said("改订单（例如：“2026-001 做完了”“把 2026-005 取消，客户不要了”）", 'orders ("2026-001 is done")'),
  },
  description:
    "Prepare an order change, boss only: status 待生产 → 生产中 → 已完成, or 已取消 with a reason; while open also " +
    "quantity, due date, note.",
  inputSchema: z.object({
    order: nameField("Order number (2026-001) or id."),
    status: z.enum(ORDER_STATUSES).optional().describe("The new status."),
    reason: z.string().max(200).optional().describe("Why cancelled."),
    quantity: z.number().int().min(1).max(1_000_000).optional().describe("Pieces ordered."),
    due_date: dateField("交货日期.").optional(),
    note: z.string().max(500).optional().describe("备注."),
  }),
  outputSchema: ActionResultSchema,
  minRole: LEAST_ROLE["business:manage"],
  prepares: "order_update",
  annotations: WRITES,
  run: async (ctx, input) => held(ctx, await prepareOrderUpdate({ business: ctx.services.business, user: ctx.user, input })),
});
