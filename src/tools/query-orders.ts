import { z } from "zod";
import { orderFilter, styleFilter } from "../business/filters.ts";
import { checkDateOrder } from "../business/local-time.ts";
import { listOrders, ORDER_STATUSES } from "../business/orders.ts";
import { callerOf } from "../business/workshop.ts";
import { dateField, nameField, pageFields, READ_ONLY, WorkshopClockSchema } from "./business-fields.ts";
import { defineTool } from "./tool.ts";

/** The workshop's orders with their progress. */
export const queryOrdersTool = defineTool({
  name: "query_orders",
  title: "Query orders",
  description:
    "List the workshop's orders (订单) by due date, with status (待生产/生产中/已完成/已取消), quantity, the day each was " +
    "placed (created_on) and progress per process (pieces recorded; the order's progress is its slowest process). " +
    "Filter by status ('open' = 待生产 and 生产中), order number, customer, style, due dates (due_from/due_to: when an " +
    "order must be delivered, 'orders due this week', 到期/要交/交货) and the days orders were placed " +
    "(created_from/created_to: 'orders placed this week', 'new orders this month', 新增/新下/新建/接的订单); both are " +
    "workshop-local YYYY-MM-DD days. Totals count every matching order, not just this page. For 'orders due next " +
    "week' or 'orders placed this month' compute the dates from `today` in the answer of any business tool.",
  inputSchema: z.object({
    status: z
      .enum([...ORDER_STATUSES, "open"])
      .optional()
      .describe("pending (待生产), in_production (生产中), completed (已完成), cancelled (已取消), or open (the first two)."),
    order: nameField("One order: its number (2026-015) or id.").optional(),
    customer_contains: z
      .string()
      .trim()
      .min(1)
      .max(50)
      .optional()
      .describe("Only orders whose customer name contains this text."),
    style: nameField("Only orders of this style: code (A01) or name.").optional(),
    due_from: dateField("Earliest due date, YYYY-MM-DD.").optional(),
    due_to: dateField("Latest due date, YYYY-MM-DD.").optional(),
    created_from: dateField("First day orders were placed on, YYYY-MM-DD in the workshop's time zone.").optional(),
    created_to: dateField("Last day orders were placed on, YYYY-MM-DD in the workshop's time zone.").optional(),
    ...pageFields,
  }),
  outputSchema: z.object({
    orders: z.array(
      z.object({
        id: z.string(),
        order_no: z.string(),
        customer: z.string(),
        style: z.object({ id: z.string(), code: z.string(), name: z.string() }),
        quantity: z.number().int(),
        due_date: z.string(),
        created_on: z.string(),
        status: z.enum(ORDER_STATUSES),
        status_label: z.string(),
        note: z.string(),
        progress: z.object({
          processes: z.array(z.object({ process_id: z.string(), name: z.string(), pieces: z.number().int() })),
          percent: z.number().int(),
        }),
      }),
    ),
    totals: z.object({ orders: z.number().int(), quantity: z.number().int() }),
    next_cursor: z.string().nullable(),
    ...WorkshopClockSchema,
  }),
  annotations: READ_ONLY,
  async run(ctx, input) {
    const business = ctx.services.business;
    const { tenantId } = business;
    checkDateOrder(input.due_from, input.due_to, ["due_from", "due_to"]);
    checkDateOrder(input.created_from, input.created_to, ["created_from", "created_to"]);
    const caller = await callerOf({ business, user: ctx.user });
    const result = await listOrders({
      business,
      tenantId,
      timeZone: caller.timeZone,
      status: input.status,
      orderId: await orderFilter({ business, tenantId, order: input.order }),
      customerContains: input.customer_contains,
      styleId: await styleFilter({ business, tenantId, style: input.style }),
      dueFrom: input.due_from,
      dueTo: input.due_to,
      createdFrom: input.created_from,
      createdTo: input.created_to,
      limit: input.limit,
      cursor: input.cursor,
    });
    return {
      kind: "result",
      structured: {
        orders: result.items,
        totals: result.totals,
        next_cursor: result.next_cursor,
        today: caller.today,
        time_zone: caller.timeZone,
      },
    };
  },
});
