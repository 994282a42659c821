import { z } from "zod";
import { holdAction } from "../actions/actions.ts";
import { prepareOrder } from "../business/prepare.ts";
import { LEAST_ROLE } from "../permissions.ts";
import { ActionResultSchema } from "./action-results.ts";
import { dateField, nameField, WRITES } from "./business-fields.ts";
import { preparedInOf } from "./confirm-by.ts";
import { defineTool } from "./tool.ts";
import { pick, said } from "./words.ts";

/** First step of creating an order (boss): checks and previews, writes nothing. */
export const prepareOrderTool = defineTool({
  name: "prepare_order",
  words: {
    title: said("准备新建订单", "Prepare a new order"),
    icon: "write",
    lists: { preview: said("预览", "preview"), ambiguities: said("待确定", "still open") },
    fields: pick("customer", "style", "quantity", "due_date", "note"),
    results: { ...pick("order_no", "customer", "quantity"), due_date: said("交货日期", "due date") },
  },
  description:
    "Prepare a new order (新建订单), boss only, writing nothing: a preview, an action_id, next_step and tell_user; its " +
    "number comes when it is confirmed. An ambiguous style: ask, then prepare again with the chosen id.",
  inputSchema: z.object({
    customer: z.string().trim().min(1).max(100).describe("Customer or brand."),
    style: nameField("款式: code (A01), name or id."),
    quantity: z.number().int().min(1).max(1_000_000).describe("Pieces ordered."),
    due_date: dateField("交货日期, YYYY-MM-DD."),
    note: z.string().trim().max(500).optional().describe("备注: fabric, colours, packing."),
  }),
  outputSchema: ActionResultSchema,
  minRole: LEAST_ROLE["orders:write"],
  prepares: "order",
  annotations: WRITES,
  async run(ctx, input) {
    const prepared = await prepareOrder({ business: ctx.services.business, user: ctx.user, input });
    const view = await holdAction({
      actions: ctx.services.actions,
      user: ctx.user,
      prepared,
      preparedIn: preparedInOf(ctx.confirming),
    });
    return { kind: "pending_action", action: view };
  },
});
