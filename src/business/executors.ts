import {
  type ActionOwner,
  type Approval,
  AUDIT_APPROVAL_COLUMNS,
  auditApprovalValues,
  type Execution,
  type Executor,
  placeholders,
} from "../actions/types.ts";
import { localDate } from "./local-time.ts";
import { yuan } from "./money.ts";
import { ORDER_STATUS_LABELS, type OrderStatus } from "./orders.ts";
import { priceOnSql } from "./prices.ts";
import type { BusinessService } from "./service.ts";
import type { OrderWrite, PieceRecordWrite } from "./writes.ts";

// Each executor writes in one D1 batch (one transaction): the row, its side effects and its audit
// entry. Each statement is conditional on what prepare checked still holding and on this action
// not having written before, so a race with a change, or a retry after a crash, writes nothing
// twice. A D1 failure throws and leaves nothing behind. The written row carries the action id
// (unique), so each can say whether its action wrote (`written`).

// The approval's audit values follow the first three parameters (the row's id, the user, the action).
const APPROVAL_FROM_4 = placeholders(4, AUDIT_APPROVAL_COLUMNS.split(",").length);

/** Writes a confirmed piece record (prepared by `preparePieceRecord`). */
export function pieceRecordExecutor(business: BusinessService): Executor<PieceRecordWrite> {
  return {
    kind: "piece_record",
    label: { zh: "计件登记", en: "Piece record" },
    written: ({ actionId, owner }) => writtenPieceRecord({ db: business.db, actionId, tenantId: owner.tenantId }),
    execute: ({ actionId, owner, write, summary, approval }) =>
      executePieceRecord({ db: business.db, actionId, owner, write, summary, approval }),
  };
}

/** Writes a confirmed new order (prepared by `prepareOrder`), numbering it when it is written. */
export function orderExecutor(business: BusinessService): Executor<OrderWrite> {
  return {
    kind: "order",
    label: { zh: "新建订单", en: "New order" },
    written: ({ actionId, owner }) => writtenOrder({ db: business.db, actionId, tenantId: owner.tenantId }),
    execute: ({ actionId, owner, write, summary, now, approval }) =>
      executeOrder({ db: business.db, actionId, owner, write, summary, now, approval }),
  };
}

async function executePieceRecord({
  db,
  actionId,
  owner,
  write,
  summary,
  approval,
}: {
  db: D1Database;
  actionId: string;
  owner: ActionOwner;
  write: PieceRecordWrite;
  summary: string;
  approval: Approval;
}): Promise<Execution> {
  const done = await writtenPieceRecord({ db, actionId, tenantId: owner.tenantId });
  if (done) return { ok: true, result: done };
  const stale = await pieceRecordStale({ db, tenantId: owner.tenantId, write });
  if (stale) return { ok: false, message: stale };
  const id = `pr-${actionId}`;
  const values = [
    id,
    owner.tenantId,
    write.employeeId,
    write.processId,
    write.orderId,
    write.quantity,
    write.unitPriceCents,
    write.workDate,
    owner.userId,
    actionId,
  ];
  await db.batch([
    db
      .prepare(
        `INSERT INTO piece_records (id, tenant_id, employee_id, process_id, order_id, quantity, unit_price_cents, work_date, entered_by, action_id)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10
          WHERE EXISTS (SELECT 1 FROM employees WHERE id = ?3 AND tenant_id = ?2 AND status = 'active')
            AND EXISTS (SELECT 1 FROM processes p WHERE p.id = ?4 AND p.tenant_id = ?2 AND p.active = 1 AND ${priceOnSql("p", "?8")} = ?7)
            AND EXISTS (SELECT 1 FROM orders WHERE id = ?5 AND tenant_id = ?2 AND status IN ('pending', 'in_production'))
            AND NOT EXISTS (SELECT 1 FROM piece_records WHERE action_id = ?10)`,
      )
      .bind(...values),
    // The guide: an order becomes 生产中 once someone records pieces for it (a change, so its version moves on).
    db
      .prepare(
        `UPDATE orders SET status = 'in_production', version = version + 1
          WHERE id = ?1 AND tenant_id = ?2 AND status = 'pending' AND EXISTS (SELECT 1 FROM piece_records WHERE id = ?3)`,
      )
      .bind(write.orderId, owner.tenantId, id),
    db
      .prepare(
        `INSERT OR IGNORE INTO business_audit (id, tenant_id, user_id, action_id, kind, entity_id, values_json, ${AUDIT_APPROVAL_COLUMNS})
         SELECT 'audit-' || ?3, tenant_id, ?2, ?3, 'piece_record', id,
                json_object('employee_id', employee_id, 'process_id', process_id, 'order_id', order_id, 'quantity', quantity,
                            'unit_price_cents', unit_price_cents, 'work_date', work_date), ${APPROVAL_FROM_4}
           FROM piece_records WHERE id = ?1`,
      )
      .bind(id, owner.userId, actionId, ...auditApprovalValues(approval, summary)),
  ]);
  const row = await writtenPieceRecord({ db, actionId, tenantId: owner.tenantId });
  if (!row) {
    // Something changed between the check above and the batch.
    return {
      ok: false,
      message: (await pieceRecordStale({ db, tenantId: owner.tenantId, write })) ?? "The record could not be written.",
    };
  }
  return { ok: true, result: row };
}

/** The row this action wrote, if it wrote one (a retry after a crash finds it here). */
async function writtenPieceRecord({
  db,
  actionId,
  tenantId,
}: {
  db: D1Database;
  actionId: string;
  tenantId: string;
}): Promise<Record<string, unknown> | null> {
  const row = await db
    .prepare(
      `SELECT r.id, r.quantity, r.unit_price_cents, r.work_date, e.name AS employee, p.name AS process, o.order_no
         FROM piece_records r JOIN employees e ON e.id = r.employee_id JOIN processes p ON p.id = r.process_id
         JOIN orders o ON o.id = r.order_id
        WHERE r.action_id = ?1 AND r.tenant_id = ?2`,
    )
    .bind(actionId, tenantId)
    .first<{
      id: string;
      quantity: number;
      unit_price_cents: number;
      work_date: string;
      employee: string;
      process: string;
      order_no: string;
    }>();
  if (!row) return null;
  const cents = row.quantity * row.unit_price_cents;
  return {
    piece_record_id: row.id,
    employee: row.employee,
    process: row.process,
    order_no: row.order_no,
    quantity: row.quantity,
    work_date: row.work_date,
    amount: { cents, yuan: yuan(cents) },
  };
}

/** Why a prepared piece record may no longer be written, or `null` if it still may. */
async function pieceRecordStale({
  db,
  tenantId,
  write,
}: {
  db: D1Database;
  tenantId: string;
  write: PieceRecordWrite;
}): Promise<string | null> {
  const [employee, process, order] = await db.batch<Record<string, unknown>>([
    db.prepare("SELECT name, status FROM employees WHERE id = ?1 AND tenant_id = ?2").bind(write.employeeId, tenantId),
    db
      .prepare(
        `SELECT p.name, ${priceOnSql("p", "?3")} AS unit_price_cents, p.active FROM processes p WHERE p.id = ?1 AND p.tenant_id = ?2`,
      )
      .bind(write.processId, tenantId, write.workDate),
    db.prepare("SELECT order_no, status FROM orders WHERE id = ?1 AND tenant_id = ?2").bind(write.orderId, tenantId),
  ]);
  const e = employee?.results[0];
  const p = process?.results[0];
  const o = order?.results[0];
  if (e?.status !== "active") return "The employee has left or no longer exists since this was prepared. Nothing was written.";
  if (p?.active !== 1) return "The process has been disabled since this was prepared. Nothing was written.";
  if (Number(p.unit_price_cents) !== write.unitPriceCents) {
    return `The unit price of ${String(p.name)} on ${write.workDate} changed from ${yuan(write.unitPriceCents)} to ${yuan(Number(p.unit_price_cents))} 元/件 since this was prepared. Nothing was written: prepare it again so the user sees the new amount.`;
  }
  if (!o || (o.status !== "pending" && o.status !== "in_production")) {
    const label = o ? ORDER_STATUS_LABELS[o.status as OrderStatus] : "deleted";
    return `Order ${o ? String(o.order_no) : ""} is now ${label} and takes no more piece records. Nothing was written.`;
  }
  return null;
}

async function executeOrder({
  db,
  actionId,
  owner,
  write,
  summary,
  now,
  approval,
}: {
  db: D1Database;
  actionId: string;
  owner: ActionOwner;
  write: OrderWrite;
  summary: string;
  now: Date;
  approval: Approval;
}): Promise<Execution> {
  const id = `ord-${actionId}`;
  const year = localDate(now, write.timeZone).slice(0, 4);
  // The number is the year and the next sequence in it, computed inside the insert so two orders
  // confirmed at once cannot take the same number.
  await db.batch([
    db
      .prepare(
        `INSERT INTO orders (id, tenant_id, order_no, customer, style_id, quantity, due_date, status, note, created_by, action_id)
         SELECT ?1, ?2, ?3 || '-' || printf('%03d', COALESCE((SELECT MAX(CAST(substr(order_no, 6) AS INTEGER)) FROM orders
                                                             WHERE tenant_id = ?2 AND order_no LIKE ?3 || '-%'), 0) + 1),
                ?4, ?5, ?6, ?7, 'pending', ?8, ?9, ?10
          WHERE EXISTS (SELECT 1 FROM styles WHERE id = ?5 AND tenant_id = ?2)
            AND NOT EXISTS (SELECT 1 FROM orders WHERE action_id = ?10)`,
      )
      .bind(
        id,
        owner.tenantId,
        year,
        write.customer,
        write.styleId,
        write.quantity,
        write.dueDate,
        write.note,
        owner.userId,
        actionId,
      ),
    db
      .prepare(
        `INSERT OR IGNORE INTO business_audit (id, tenant_id, user_id, action_id, kind, entity_id, values_json, ${AUDIT_APPROVAL_COLUMNS})
         SELECT 'audit-' || ?3, tenant_id, ?2, ?3, 'order', id,
                json_object('order_no', order_no, 'customer', customer, 'style_id', style_id, 'quantity', quantity,
                            'due_date', due_date, 'note', note), ${APPROVAL_FROM_4}
           FROM orders WHERE id = ?1`,
      )
      .bind(id, owner.userId, actionId, ...auditApprovalValues(approval, summary)),
  ]);
  const written = await writtenOrder({ db, actionId, tenantId: owner.tenantId });
  if (!written) return { ok: false, message: "The style of this order no longer exists. Nothing was written." };
  return { ok: true, result: written };
}

/** The order this action created, if it created one. */
async function writtenOrder({
  db,
  actionId,
  tenantId,
}: {
  db: D1Database;
  actionId: string;
  tenantId: string;
}): Promise<Record<string, unknown> | null> {
  const row = await db
    .prepare("SELECT id, order_no, customer, quantity, due_date FROM orders WHERE action_id = ?1 AND tenant_id = ?2")
    .bind(actionId, tenantId)
    .first<{ id: string; order_no: string; customer: string; quantity: number; due_date: string }>();
  if (!row) return null;
  return {
    order_id: row.id,
    order_no: row.order_no,
    customer: row.customer,
    quantity: row.quantity,
    due_date: row.due_date,
    status: "pending",
  };
}
