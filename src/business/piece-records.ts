import { decodeCursor, page } from "../cursor.ts";
import type { DateRange } from "./local-time.ts";
import { money } from "./money.ts";
import type { BusinessService } from "./service.ts";
import { Where } from "./where.ts";

export interface PieceRecordRow {
  id: string;
  work_date: string;
  employee: { id: string; name: string };
  process: { id: string; name: string };
  style: { code: string; name: string };
  order: { id: string; order_no: string };
  quantity: number;
  unit_price: { cents: number; yuan: string };
  amount: { cents: number; yuan: string };
  entered_by: string | null;
}

export interface PieceTotals {
  records: number;
  pieces: number;
  amount: { cents: number; yuan: string };
}

export const GROUPINGS = ["employee", "process", "order", "date"] as const;
export type Grouping = (typeof GROUPINGS)[number];

export interface PieceGroup extends PieceTotals {
  key: string;
  label: string;
}

// Each grouping: the column grouped on and the label shown for it.
const GROUP_SQL: Record<Grouping, { key: string; label: string }> = {
  employee: { key: "r.employee_id", label: "e.name" },
  process: { key: "r.process_id", label: "p.name || ' (' || s.code || ')'" },
  order: { key: "r.order_id", label: "o.order_no || ' ' || o.customer" },
  date: { key: "r.work_date", label: "r.work_date" },
};

const MAX_GROUPS = 200;

const FROM = `FROM piece_records r
  JOIN employees e ON e.id = r.employee_id AND e.tenant_id = r.tenant_id
  JOIN processes p ON p.id = r.process_id AND p.tenant_id = r.tenant_id
  JOIN styles s ON s.id = p.style_id AND s.tenant_id = r.tenant_id
  JOIN orders o ON o.id = r.order_id AND o.tenant_id = r.tenant_id`;

/**
 * Piece records of one workshop, newest first, with totals over every matching record (not just
 * this page) and, when asked, subtotals per employee, process, order or date. `employeeId` is
 * already the caller's own for staff: scoping is the caller's job, in the query.
 */
export async function queryPieceRecords({
  business,
  tenantId,
  employeeId,
  processIds,
  orderId,
  dates,
  groupBy,
  limit,
  cursor,
}: {
  business: BusinessService;
  tenantId: string;
  employeeId?: string | undefined;
  /** Several when one name is a process of several styles (裁剪 of every style). */
  processIds?: string[] | undefined;
  orderId?: string | undefined;
  dates: DateRange | null;
  groupBy?: Grouping | undefined;
  limit: number;
  cursor?: string | undefined;
}): Promise<{ items: PieceRecordRow[]; next_cursor: string | null; totals: PieceTotals; groups?: PieceGroup[] }> {
  const w = new Where();
  w.add(`r.tenant_id = ${w.param(tenantId)}`);
  if (employeeId) w.add(`r.employee_id = ${w.param(employeeId)}`);
  if (processIds?.length) w.add(`r.process_id IN (${processIds.map((id) => w.param(id)).join(", ")})`);
  if (orderId) w.add(`r.order_id = ${w.param(orderId)}`);
  if (dates) w.add(`r.work_date BETWEEN ${w.param(dates.from)} AND ${w.param(dates.to)}`);
  const p = w.copy();
  if (cursor) {
    const [date, id] = decodeCursor(cursor, 2);
    p.add(`(r.work_date, r.id) < (${p.param(String(date))}, ${p.param(String(id))})`);
  }
  const db = business.db;
  const statements = [
    db
      .prepare(
        `SELECT r.id, r.work_date, r.quantity, r.unit_price_cents, r.entered_by, e.id AS employee_id, e.name AS employee_name,
                p.id AS process_id, p.name AS process_name, s.code AS style_code, s.name AS style_name, o.id AS order_id, o.order_no
           ${FROM} WHERE ${p.sql} ORDER BY r.work_date DESC, r.id DESC LIMIT ${limit + 1}`,
      )
      .bind(...p.params),
    db
      .prepare(
        `SELECT COUNT(*) AS records, COALESCE(SUM(r.quantity), 0) AS pieces, COALESCE(SUM(r.quantity * r.unit_price_cents), 0) AS cents
           FROM piece_records r WHERE ${w.sql}`,
      )
      .bind(...w.params),
  ];
  if (groupBy) {
    const g = GROUP_SQL[groupBy];
    statements.push(
      db
        .prepare(
          `SELECT ${g.key} AS key, ${g.label} AS label, COUNT(*) AS records, SUM(r.quantity) AS pieces,
                  SUM(r.quantity * r.unit_price_cents) AS cents
             ${FROM} WHERE ${w.sql} GROUP BY ${g.key} ORDER BY pieces DESC, key LIMIT ${MAX_GROUPS}`,
        )
        .bind(...w.params),
    );
  }
  const [rows, totals, groups] = await db.batch<Record<string, unknown>>(statements);
  const paged = page(rows?.results ?? [], limit, (r) => [String(r.work_date), String(r.id)]);
  const t = totals?.results[0] ?? {};
  return {
    items: paged.items.map((r) => ({
      id: String(r.id),
      work_date: String(r.work_date),
      employee: { id: String(r.employee_id), name: String(r.employee_name) },
      process: { id: String(r.process_id), name: String(r.process_name) },
      style: { code: String(r.style_code), name: String(r.style_name) },
      order: { id: String(r.order_id), order_no: String(r.order_no) },
      quantity: Number(r.quantity),
      unit_price: money(Number(r.unit_price_cents)),
      amount: money(Number(r.quantity) * Number(r.unit_price_cents)),
      entered_by: (r.entered_by as string | null) ?? null,
    })),
    next_cursor: paged.next_cursor,
    totals: { records: Number(t.records ?? 0), pieces: Number(t.pieces ?? 0), amount: money(Number(t.cents ?? 0)) },
    ...(groups
      ? {
          groups: groups.results.map((g) => ({
            key: String(g.key),
            label: String(g.label),
            records: Number(g.records),
            pieces: Number(g.pieces),
            amount: money(Number(g.cents)),
          })),
        }
      : {}),
  };
}
