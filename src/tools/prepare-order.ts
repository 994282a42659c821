import { z } from "zod";
import { holdAction } from "../actions/actions.ts";
import { prepareOrder } from "../business/prepare.ts";
import { LEAST_ROLE } from "../permissions.ts";
import { dateField, nameField } from "./business-fields.ts";
import { defineTool } from "./tool.ts";

/** First step of creating an order (boss): checks and previews, writes nothing. */
export const prepareOrderTool = defineTool({
  name: "prepare_order",
  title: "Prepare a new order (needs confirmation)",
  description:
    "Prepare a new order (新建订单) for a customer: style, quantity, due date, note. Boss only. Nothing is saved: it " +
    "returns an action_id with a preview (客户/款式/数量/交货日期/备注); the order number (年份-序号) is assigned when " +
    "confirmed. Show the preview and ask the user; only after they clearly say yes call confirm_action. Never confirm " +
    "on your own initiative. If the style is ambiguous, ask the user and prepare again with the chosen style id.",
  inputSchema: z.object({
    customer: z.string().trim().min(1).max(100).describe("The customer or brand that placed the order."),
    style: nameField("The style (款式): code (A01), name (男式衬衫) or id."),
    quantity: z.number().int().min(1).max(1_000_000).describe("Total pieces ordered, a whole number."),
    due_date: dateField("Due date (交货日期), YYYY-MM-DD, today or later."),
    note: z.string().trim().max(500).optional().describe("Fabric, colours, packing and other requirements (备注)."),
  }),
  minRole: LEAST_ROLE["orders:write"],
  prepares: "order",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(ctx, input) {
    const prepared = await prepareOrder({ business: ctx.services.business, user: ctx.user, input });
    const view = await holdAction({ actions: ctx.services.actions, user: ctx.user, prepared });
    return { kind: "pending_action", action: view };
  },
});
