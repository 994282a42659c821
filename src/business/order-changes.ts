import type { Executor, Prepared } from "../actions/types.ts";
import { AppError } from "../errors.ts";
import type { PreviewField } from "../shapes.ts";
import type { UserContext } from "../user-context.ts";
import {
  auditStatement,
  changeLines,
  checkIfMatch,
  executeOnce,
  MANAGER,
  type RowUpdate,
  requireManager,
  rowChange,
  staleRow,
  updateStatements,
  type Words,
  writtenByAudit,
} from "./changes.ts";
import { settle } from "./name-match.ts";
import { OPEN_STATUSES, ORDER_STATUS_LABELS, type OrderStatus, orderCandidates } from "./orders.ts";
import type { BusinessService } from "./service.ts";
import { textOf } from "./values.ts";
import { callerOf } from "./workshop.ts";

// An order moves along its statuses only forwards: 待生产 → 生产中 → 已完成, or to 已取消 (with a
// reason) from either open one. A piece record moves a 待生产 order to 生产中 on its own; a boss
// does the rest. While open, its quantity, due date and note may change; once done, nothing does.

/** The statuses an order may move to from each. */
export const ORDER_STEPS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  pending: ["in_production", "cancelled"],
  in_production: ["completed", "cancelled"],
  completed: [],
  cancelled: [],
};

export interface OrderUpdateInput {
  order: string;
  status?: OrderStatus | undefined;
  reason?: string | undefined;
  quantity?: number | undefined;
  due_date?: string | undefined;
  note?: string | undefined;
}

/** An order's change, checked, waiting to be written. */
export interface OrderUpdateWrite {
  update: RowUpdate;
  what: string;
}

interface OrderRecord {
  id: string;
  order_no: string;
  customer: string;
  quantity: number;
  due_date: string;
  status: OrderStatus;
  note: string;
  cancel_reason: string;
  version: number;
  style: string;
}

const LABELS = { status: "状态", quantity: "数量", due_date: "交货日期", note: "备注", cancel_reason: "取消原因" } as const;

function wordsFor(what: string): Words {
  return {
    what,
    labels: LABELS,
    show: (column, value) => {
      if (column === "status") return ORDER_STATUS_LABELS[value as OrderStatus] ?? String(value);
      if (column === "quantity") return `${value} 件`;
      return value === null || value === "" ? "空" : String(value);
    },
  };
}

async function orderRecord(business: BusinessService, id: string): Promise<OrderRecord | null> {
  return business.db
    .prepare(
      `SELECT o.id, o.order_no, o.customer, o.quantity, o.due_date, o.status, o.note, o.cancel_reason, o.version,
              s.code || ' ' || s.name AS style
         FROM orders o JOIN styles s ON s.id = o.style_id AND s.tenant_id = o.tenant_id
        WHERE o.id = ?1 AND o.tenant_id = ?2`,
    )
    .bind(id, business.tenantId)
    .first<OrderRecord>();
}

/** Pieces recorded for the order per active process of its style, fewest first. */
async function progressOf(business: BusinessService, order: OrderRecord): Promise<{ name: string; pieces: number }[]> {
  const { results } = await business.db
    .prepare(
      `SELECT p.name, (SELECT COALESCE(SUM(r.quantity), 0) FROM piece_records r
                        WHERE r.tenant_id = o.tenant_id AND r.order_id = o.id AND r.process_id = p.id) AS pieces
         FROM orders o JOIN processes p ON p.tenant_id = o.tenant_id AND p.style_id = o.style_id AND p.active = 1
        WHERE o.id = ?1 AND o.tenant_id = ?2 ORDER BY pieces, p.sort_order`,
    )
    .bind(order.id, business.tenantId)
    .all<{ name: string; pieces: number }>();
  return results;
}

/**
 * Checks an order's change (boss only) and previews it, each changed field's old and new value
 * side by side, writing nothing: its status along the allowed steps (a cancel needs a reason),
 * and, while it is open, its quantity, due date (not before today) and note.
 */
export async function prepareOrderUpdate({
  business,
  user,
  input,
  ifVersion,
}: {
  business: BusinessService;
  user: UserContext;
  input: OrderUpdateInput;
  ifVersion?: number[] | undefined;
}): Promise<Prepared<OrderUpdateWrite>> {
  requireManager(user);
  const caller = await callerOf({ business, user });
  const settled = settle(
    await orderCandidates({ business, tenantId: business.tenantId, openOnly: false }),
    input.order,
    "orders",
    "order",
  );
  if (settled.ambiguity) {
    return {
      kind: "order_update",
      write: null,
      summary: `修改订单：${input.order}`,
      preview: [{ label: "订单", value: "待选择" }],
      ambiguities: [settled.ambiguity],
      needs: MANAGER,
    };
  }
  const order = await orderRecord(business, settled.item.id);
  if (!order) throw new AppError("unknown_name", `No order '${input.order}' in this workshop.`);
  const what = `订单 ${order.order_no}`;
  checkIfMatch(ifVersion, order, `Order ${order.order_no}`);
  const open = OPEN_STATUSES.includes(order.status);
  const status = ORDER_STATUS_LABELS[order.status];
  const after: Record<string, string | number> = {};
  if (input.status !== undefined && input.status !== order.status) {
    if (!ORDER_STEPS[order.status].includes(input.status)) {
      const allowed = ORDER_STEPS[order.status].map((s) => ORDER_STATUS_LABELS[s]);
      throw new AppError(
        "unprocessable",
        `Order ${order.order_no} is ${status}: it can ${allowed.length ? `only become ${allowed.join(" or ")}` : "no longer change"}, not ${ORDER_STATUS_LABELS[input.status]}.${order.status === "pending" && input.status === "completed" ? " No pieces are recorded for it yet: mark it 生产中 first, or cancel it." : ""}`,
      );
    }
    after.status = input.status;
    if (input.status === "cancelled") {
      const reason = input.reason === undefined ? "" : textOf(input.reason, "reason", 200);
      if (reason === "")
        throw new AppError("invalid_input", `reason: say why order ${order.order_no} is cancelled (客户不要了, say).`);
      after.cancel_reason = reason;
    }
  } else if (
    input.status !== undefined &&
    input.quantity === undefined &&
    input.due_date === undefined &&
    input.note === undefined
  ) {
    throw new AppError("invalid_input", `Order ${order.order_no} is already ${status}.`);
  }
  if (input.reason !== undefined && after.status !== "cancelled") {
    throw new AppError("invalid_input", "reason is for cancelling an order (status cancelled).");
  }
  if (input.quantity !== undefined || input.due_date !== undefined || input.note !== undefined) {
    if (!open)
      throw new AppError(
        "unprocessable",
        `Order ${order.order_no} is ${status}: its quantity, due date and note no longer change.`,
      );
    if (input.quantity !== undefined && input.quantity !== order.quantity) after.quantity = input.quantity;
    if (input.due_date !== undefined && input.due_date !== order.due_date) {
      if (input.due_date < caller.today) {
        throw new AppError("invalid_input", `due_date ${input.due_date} is before today (${caller.today} in this workshop).`);
      }
      after.due_date = input.due_date;
    }
    if (input.note !== undefined) {
      const note = textOf(input.note, "note", 500);
      if (note !== order.note) after.note = note;
    }
  }
  if (Object.keys(after).length === 0) throw new AppError("invalid_input", `Nothing to change for order ${order.order_no}.`);
  const update: RowUpdate = {
    table: "orders",
    id: order.id,
    version: order.version,
    before: {
      status: order.status,
      quantity: order.quantity,
      due_date: order.due_date,
      note: order.note,
      cancel_reason: order.cancel_reason,
    },
    after,
  };
  const preview: PreviewField[] = [
    { label: "订单", value: `${order.order_no} ${order.customer} ${order.style} ${order.quantity} 件` },
    ...changeLines(update, wordsFor(what)),
    ...(await hints(business, order, after)),
  ];
  return {
    kind: "order_update",
    write: { update, what },
    summary: summaryOf(order, after),
    preview,
    ambiguities: [],
    needs: MANAGER,
  };
}

function summaryOf(order: OrderRecord, after: Record<string, string | number>): string {
  if (after.status === "cancelled") return `取消订单 ${order.order_no}（${after.cancel_reason}）`;
  if (after.status !== undefined) {
    return `订单 ${order.order_no}：${ORDER_STATUS_LABELS[order.status]} → ${ORDER_STATUS_LABELS[after.status as OrderStatus]}`;
  }
  const words = wordsFor("");
  const changed = Object.keys(after).map((c) => `${LABELS[c as keyof typeof LABELS]} ${words.show?.(c, after[c] ?? null)}`);
  return `修改订单 ${order.order_no}：${changed.join("，")}`;
}

/** What a person should know before saying yes: work left undone, a quantity below what is recorded. */
async function hints(
  business: BusinessService,
  order: OrderRecord,
  after: Record<string, string | number>,
): Promise<PreviewField[]> {
  const out: PreviewField[] = [];
  if (after.status === "cancelled" || after.status === "completed") {
    out.push({ label: "说明", value: "之后不能再登记这张订单的计件；已登记的计件照常算工资" });
  }
  if (after.status === "completed" || after.quantity !== undefined) {
    const quantity = Number(after.quantity ?? order.quantity);
    const progress = await progressOf(business, order);
    const short = progress.filter((p) => p.pieces < quantity);
    if (after.status === "completed" && short.length > 0) {
      out.push({
        label: "提示",
        value: `还有工序没登记够 ${quantity} 件：${short
          .slice(0, 5)
          .map((p) => `${p.name} ${p.pieces} 件`)
          .join("，")}`,
      });
    }
    const over = progress.filter((p) => p.pieces > quantity);
    if (after.quantity !== undefined && over.length > 0) {
      out.push({
        label: "提示",
        value: `已登记的件数超过新数量：${over
          .slice(0, 5)
          .map((p) => `${p.name} ${p.pieces} 件`)
          .join("，")}`,
      });
    }
  }
  return out;
}

/** Writes a confirmed change of an order, with its audit entry (before and after) in the same batch. */
export function orderUpdateExecutor(business: BusinessService): Executor<OrderUpdateWrite> {
  const { db } = business;
  return {
    kind: "order_update",
    label: { zh: "订单变更", en: "Order change" },
    written: ({ actionId, owner }) => writtenByAudit(db, actionId, owner.tenantId),
    execute: ({ actionId, owner, write, summary, approval }) =>
      executeOnce({
        db,
        actionId,
        tenantId: owner.tenantId,
        stale: () => staleRow(db, owner.tenantId, write.update, wordsFor(write.what)),
        statements: () => [
          ...updateStatements(db, owner.tenantId, write.update),
          auditStatement(
            db,
            { owner, actionId, kind: "order_update", entityId: write.update.id, summary, approval },
            { json: rowChange(write.update) },
          ),
        ],
      }),
  };
}
