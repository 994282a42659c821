import { z } from "zod";
import { orderFilter, styleFilter } from "../business/filters.ts";
import { checkDateOrder } from "../business/local-time.ts";
import { listOrders, ORDER_STATUSES, type OrderRow } from "../business/orders.ts";
import { callerOf } from "../business/workshop.ts";
import { AppError } from "../errors.ts";
import { OPEN_ORDERS_WORDS, ORDER_STATUS_WORDS, type OrderStatusFilter, orderStatusOfWords } from "../status-words.ts";
import { type AppliedPeriod, AppliedSchema, ClockSchema, count, filterWords, periodOf, periodWords } from "./applied.ts";
import { dateField, nameField, pageFields, READ_ONLY } from "./business-fields.ts";
import { defineTool } from "./tool.ts";
import { pick, said } from "./words.ts";

const FIELD_WORDS = pick(
  "status",
  "order",
  "customer_contains",
  "style",
  "due_from",
  "due_to",
  "created_from",
  "created_to",
  "created_on",
);

/** The status a filter asks for: a status's code, `open`, or people's words for one (还没完成 = open). */
function statusFilter(asked: string): OrderStatusFilter {
  if (asked === "open" || (ORDER_STATUSES as readonly string[]).includes(asked)) return asked as OrderStatusFilter;
  const read = orderStatusOfWords(asked);
  if (!read) {
    throw new AppError(
      "invalid_input",
      `status '${asked.slice(0, 20)}' is not one Weft knows: use pending, in_production, completed, cancelled or open (未完成).`,
    );
  }
  return read;
}

function statusWords(status: OrderStatusFilter): string {
  if (status === "open")
    return `${OPEN_ORDERS_WORDS.zh}（${ORDER_STATUS_WORDS.pending.zh}、${ORDER_STATUS_WORDS.in_production.zh}）`;
  return ORDER_STATUS_WORDS[status].zh;
}

/** The workshop's orders with their progress. */
export const queryOrdersTool = defineTool({
  name: "query_orders",
  words: {
    title: said("查订单", "Look up orders"),
    icon: "records",
    fields: { ...FIELD_WORDS, ...pick("open", "pending", "in_production", "completed", "cancelled") },
    results: {
      ...pick("order_no", "customer", "style", "quantity", "due_date", "created_on", "status", "note", "orders", "totals"),
      days_left: said("剩余天数", "days left"),
      overdue: said("已逾期", "overdue"),
      remaining_pieces: said("还差件数", "pieces left"),
      progress: said("进度", "progress"),
      percent: said("完成%", "done %"),
    },
    lists: { orders: said("订单", "orders") },
    offer: said("查订单（例如：“还没完成的订单有哪些”）", 'orders ("which orders are still open")'),
  },
  description:
    "The workshop's orders (订单) by due date: status, quantity, day placed, progress per process, pieces still to " +
    "make, days left (negative once overdue). Filter by status (open = 待生产 and 生产中; people's words work: " +
    "还没完成, 没做完, 在做的), number, customer, style, due dates or days placed (YYYY-MM-DD from `today`). At most " +
    "about 5,000 characters by default (10 orders).",
  inputSchema: z.object({
    status: z
      .string()
      .trim()
      .min(1)
      .max(20)
      .optional()
      .describe("pending, in_production, completed, cancelled, or open (the first two)."),
    order: nameField("Number (2026-015) or id.").optional(),
    customer_contains: z.string().trim().min(1).max(50).optional().describe("Part of the customer's name."),
    style: nameField("Code (A01) or name.").optional(),
    due_from: dateField("YYYY-MM-DD").optional(),
    due_to: dateField("YYYY-MM-DD").optional(),
    created_from: dateField("YYYY-MM-DD").optional(),
    created_to: dateField("YYYY-MM-DD").optional(),
    ...pageFields,
  }),
  outputSchema: z.object({
    ...AppliedSchema,
    totals: z.object({ orders: z.number().int(), quantity: z.number().int() }),
    orders: z.array(
      z.object({
        id: z.string(),
        order_no: z.string(),
        customer: z.string(),
        style: z.object({ code: z.string(), name: z.string() }),
        quantity: z.number().int(),
        due_date: z.string(),
        created_on: z.string(),
        status: z.enum(ORDER_STATUSES),
        note: z.string(),
        days_left: z.number().int().nullable(),
        overdue: z.boolean(),
        remaining_pieces: z.number().int(),
        progress: z.object({ processes: z.record(z.string(), z.number().int()), percent: z.number().int() }),
      }),
    ),
    next_cursor: z.string().nullable(),
    ...ClockSchema,
  }),
  annotations: READ_ONLY,
  async run(ctx, input) {
    const business = ctx.services.business;
    const { tenantId } = business;
    checkDateOrder(input.due_from, input.due_to, ["due_from", "due_to"]);
    checkDateOrder(input.created_from, input.created_to, ["created_from", "created_to"]);
    const status = input.status === undefined ? undefined : statusFilter(input.status);
    const caller = await callerOf({ business, user: ctx.user });
    const order = await orderFilter({ business, tenantId, order: input.order });
    const style = await styleFilter({ business, tenantId, style: input.style });
    const result = await listOrders({
      business,
      tenantId,
      timeZone: caller.timeZone,
      today: caller.today,
      status,
      orderId: order?.ids[0],
      customerContains: input.customer_contains,
      styleId: style?.ids[0],
      dueFrom: input.due_from,
      dueTo: input.due_to,
      createdFrom: input.created_from,
      createdTo: input.created_to,
      limit: input.limit,
      cursor: input.cursor,
    });
    const due =
      input.due_from || input.due_to ? { from: input.due_from ?? "0000-01-01", to: input.due_to ?? "9999-12-31" } : null;
    const placed =
      input.created_from || input.created_to
        ? { from: input.created_from ?? "0000-01-01", to: input.created_to ?? "9999-12-31" }
        : null;
    const period = periodOf({
      range: due ?? placed,
      of: due ? "due_date" : placed ? "created_on" : undefined,
      today: caller.today,
    });
    const filters: Record<string, string> = {};
    if (status) filters.status = statusWords(status);
    if (order) filters.order = order.label;
    if (input.customer_contains) filters.customer_contains = input.customer_contains;
    if (style) filters.style = style.label;
    if (due && placed)
      filters.created_on = periodWords(periodOf({ range: placed, of: "created_on", today: caller.today }), caller.today);
    const assumptions = [
      ...[order, style].flatMap((f) => (f?.readFrom ? [`把“${f.readFrom}”当作 ${f.label}`] : [])),
      ...(status && input.status !== status ? [`把“${input.status}”当作${statusWords(status)}`] : []),
    ];
    const summary = `${ordersLead(period, filters, caller.today)}：${ordersSentence(result.items, result.totals)}`;
    const structured = {
      summary,
      period,
      filters,
      assumptions,
      totals: result.totals,
      orders: result.items,
      next_cursor: result.next_cursor,
      today: caller.today,
      time_zone: caller.timeZone,
    };
    return { kind: "result", structured, text: summary };
  },
});

// What was looked at: "未完成（待生产、生产中）的订单，交期 本月（…）".
function ordersLead(period: AppliedPeriod, filters: Record<string, string>, today: string): string {
  const { status, ...rest } = filters;
  const which = filterWords(rest, FIELD_WORDS);
  const dates =
    period.name === "all" ? "不限日期" : `${period.of === "created_on" ? "下单日期" : "交期"} ${periodWords(period, today)}`;
  return `${status ? `${status}的` : "全部"}订单${which ? `（${which}）` : ""}，${dates}`;
}

// The counts, the overdue ones by number, and the next one due with what it still needs.
function ordersSentence(orders: OrderRow[], totals: { orders: number; quantity: number }): string {
  if (totals.orders === 0) return "没有符合条件的订单。";
  const late = orders.filter((o) => o.overdue);
  const next = orders.find((o) => !o.overdue && o.days_left !== null);
  const parts = [`共 ${count(totals.orders)} 张、${count(totals.quantity)} 件，按交期排列`];
  if (late.length) parts.push(`已逾期 ${late.map((o) => `${o.order_no}（${-(o.days_left ?? 0)} 天）`).join("、")}`);
  if (next) parts.push(`最近要交的 ${next.order_no} 还有 ${next.days_left} 天，还差 ${count(next.remaining_pieces)} 件`);
  return `${parts.join("；")}。`;
}
