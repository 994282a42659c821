import { decodeCursor, page } from "../cursor.ts";
import { ORDER_STATUS_WORDS } from "../status-words.ts";
import { addDays, dayStartUtc, localDate } from "./local-time.ts";
import type { Named } from "./name-match.ts";
import type { BusinessService } from "./service.ts";
import { Where } from "./where.ts";

export const ORDER_STATUSES = ["pending", "in_production", "completed", "cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The names the guide and the workshop use for each status (one table with the browser's, in status-words.ts). */
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: ORDER_STATUS_WORDS.pending.zh,
  in_production: ORDER_STATUS_WORDS.in_production.zh,
  completed: ORDER_STATUS_WORDS.completed.zh,
  cancelled: ORDER_STATUS_WORDS.cancelled.zh,
};

/** Orders that still take piece records. */
export const OPEN_STATUSES: readonly OrderStatus[] = ["pending", "in_production"];

export interface OrderRow {
  id: string;
  order_no: string;
  customer: string;
  /** Its style by code and name, as people and the filters name it. */
  style: { code: string; name: string };
  quantity: number;
  due_date: string;
  /** The workshop-local day the order was placed (created in Weft). */
  created_on: string;
  status: OrderStatus;
  note: string;
  /**
   * Days from the workshop's today to the due date, negative once it has passed; `null` for an
   * order that is completed or cancelled, which is due for nothing.
   */
  days_left: number | null;
  /** Still open (待生产, 生产中) and its due date has passed. */
  overdue: boolean;
  /** Pieces its slowest process still has to make (0 once every process has made the quantity). */
  remaining_pieces: number;
  /**
   * Pieces recorded per process of the order's style, by the process's name (unique within a
   * style), in the order they are done; progress is the slowest process's share.
   */
  progress: { processes: Record<string, number>; percent: number };
}

export type OrderCandidate = Named & { styleId: string; status: OrderStatus; orderNo: string };

/** Orders as candidates for what a person names (number, customer, style), optionally only open ones of a style. */
export async function orderCandidates({
  business,
  tenantId,
  openOnly,
  styleId,
}: {
  business: BusinessService;
  tenantId: string;
  openOnly: boolean;
  styleId?: string | undefined;
}): Promise<OrderCandidate[]> {
  const w = new Where();
  w.add(`o.tenant_id = ${w.param(tenantId)}`);
  if (openOnly) w.add("o.status IN ('pending', 'in_production')");
  if (styleId) w.add(`o.style_id = ${w.param(styleId)}`);
  const { results } = await business.db
    .prepare(
      `SELECT o.id, o.order_no, o.customer, o.style_id, o.status, o.quantity, o.due_date, s.code, s.name AS style_name
         FROM orders o JOIN styles s ON s.id = o.style_id AND s.tenant_id = o.tenant_id
        WHERE ${w.sql} ORDER BY o.due_date, o.id`,
    )
    .bind(...w.params)
    .all<{
      id: string;
      order_no: string;
      customer: string;
      style_id: string;
      status: OrderStatus;
      quantity: number;
      due_date: string;
      code: string;
      style_name: string;
    }>();
  return results.map((r) => ({
    id: r.id,
    name: `${r.order_no} ${r.customer} ${r.style_name}`,
    label: `${r.order_no} ${r.customer} ${r.code} ${r.style_name} ${r.quantity}件 交期${r.due_date} ${ORDER_STATUS_LABELS[r.status]}`,
    aliases: [r.order_no],
    styleId: r.style_id,
    status: r.status,
    orderNo: r.order_no,
  }));
}

/**
 * A page of orders by due date, each with its progress per process. Due dates are local dates as
 * stored; creation days (`createdFrom`, `createdTo`) are workshop-local days, compared with the UTC
 * `created_at` from the instant each day begins in `timeZone`.
 */
export async function listOrders({
  business,
  tenantId,
  timeZone,
  today,
  status,
  orderId,
  customerContains,
  styleId,
  dueFrom,
  dueTo,
  createdFrom,
  createdTo,
  limit,
  cursor,
}: {
  business: BusinessService;
  tenantId: string;
  timeZone: string;
  /** The workshop's today, which days left and overdue are counted from. */
  today: string;
  status?: OrderStatus | "open" | undefined;
  orderId?: string | undefined;
  customerContains?: string | undefined;
  styleId?: string | undefined;
  dueFrom?: string | undefined;
  dueTo?: string | undefined;
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}): Promise<{ items: OrderRow[]; next_cursor: string | null; totals: { orders: number; quantity: number } }> {
  const w = new Where();
  w.add(`o.tenant_id = ${w.param(tenantId)}`);
  if (status === "open") w.add("o.status IN ('pending', 'in_production')");
  else if (status) w.add(`o.status = ${w.param(status)}`);
  if (orderId) w.add(`o.id = ${w.param(orderId)}`);
  if (customerContains) w.add(`instr(o.customer, ${w.param(customerContains)}) > 0`);
  if (styleId) w.add(`o.style_id = ${w.param(styleId)}`);
  if (dueFrom) w.add(`o.due_date >= ${w.param(dueFrom)}`);
  if (dueTo) w.add(`o.due_date <= ${w.param(dueTo)}`);
  if (createdFrom) w.add(`o.created_at >= ${w.param(dayStartUtc(createdFrom, timeZone))}`);
  if (createdTo) w.add(`o.created_at < ${w.param(dayStartUtc(addDays(createdTo, 1), timeZone))}`);
  const p = w.copy();
  if (cursor) {
    const [due, id] = decodeCursor(cursor, 2);
    p.add(`(o.due_date, o.id) > (${p.param(String(due))}, ${p.param(String(id))})`);
  }
  const db = business.db;
  const [rows, totals] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT o.id, o.order_no, o.customer, o.quantity, o.due_date, o.created_at, o.status, o.note, s.code, s.name AS style_name
           FROM orders o JOIN styles s ON s.id = o.style_id AND s.tenant_id = o.tenant_id
          WHERE ${p.sql} ORDER BY o.due_date, o.id LIMIT ${limit + 1}`,
      )
      .bind(...p.params),
    db
      .prepare(`SELECT COUNT(*) AS orders, COALESCE(SUM(o.quantity), 0) AS quantity FROM orders o WHERE ${w.sql}`)
      .bind(...w.params),
  ]);
  const paged = page(rows?.results ?? [], limit, (r) => [String(r.due_date), String(r.id)]);
  const progress = await progressOf({ db, tenantId, orders: paged.items });
  const items = paged.items.map((r): OrderRow => {
    const processes = progress.get(String(r.id)) ?? [];
    const quantity = Number(r.quantity);
    const slowest = processes.length ? Math.min(...processes.map((p) => p.pieces)) : 0;
    const status = r.status as OrderStatus;
    const due = String(r.due_date);
    const open = OPEN_STATUSES.includes(status);
    return {
      id: String(r.id),
      order_no: String(r.order_no),
      customer: String(r.customer),
      style: { code: String(r.code), name: String(r.style_name) },
      quantity,
      due_date: String(r.due_date),
      created_on: localDate(new Date(String(r.created_at)), timeZone),
      status,
      note: String(r.note),
      days_left: open ? daysBetween(today, due) : null,
      overdue: open && due < today,
      remaining_pieces: Math.max(0, quantity - slowest),
      progress: {
        processes: Object.fromEntries(processes.map((p) => [p.name, p.pieces])),
        percent: Math.min(100, Math.floor((slowest * 100) / quantity)),
      },
    };
  });
  const t = totals?.results[0] ?? {};
  return { items, next_cursor: paged.next_cursor, totals: { orders: Number(t.orders ?? 0), quantity: Number(t.quantity ?? 0) } };
}

/** Whole days from one `YYYY-MM-DD` date to another (negative when `to` comes first). */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * Pieces recorded per active process of each order's style, for one page of orders. A process
 * added to the style after the order was placed counts only once it has pieces on that order: the
 * order was planned without it, and a new 锁眼 must not drop every open order to 0% (nor say a
 * finished one still lacks its quantity).
 */
async function progressOf({
  db,
  tenantId,
  orders,
}: {
  db: D1Database;
  tenantId: string;
  orders: Record<string, unknown>[];
}): Promise<Map<string, { name: string; pieces: number }[]>> {
  const out = new Map<string, { name: string; pieces: number }[]>();
  if (orders.length === 0) return out;
  const w = new Where();
  w.add(`o.tenant_id = ${w.param(tenantId)}`);
  w.add(`o.id IN (${orders.map((o) => w.param(String(o.id))).join(", ")})`);
  const { results } = await db
    .prepare(
      `SELECT o.id AS order_id, p.name, p.created_at <= o.created_at AS planned,
              (SELECT COALESCE(SUM(r.quantity), 0) FROM piece_records r
                WHERE r.tenant_id = o.tenant_id AND r.order_id = o.id AND r.process_id = p.id) AS pieces
         FROM orders o JOIN processes p ON p.tenant_id = o.tenant_id AND p.style_id = o.style_id AND p.active = 1
        WHERE ${w.sql} ORDER BY o.id, p.sort_order, p.id`,
    )
    .bind(...w.params)
    .all<{ order_id: string; name: string; planned: number; pieces: number }>();
  for (const r of results) {
    if (!r.planned && r.pieces === 0) continue;
    const list = out.get(r.order_id) ?? [];
    list.push({ name: r.name, pieces: r.pieces });
    out.set(r.order_id, list);
  }
  return out;
}
