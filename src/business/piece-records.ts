import { decodeCursor, encodeCursor, page } from "../cursor.ts";
import { AppError } from "../errors.ts";
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

/** How rows are ordered: records newest first by default, groups by pieces, largest first. */
export const PIECE_SORTS = ["date", "pieces", "amount", "name"] as const;
export type PieceSort = (typeof PIECE_SORTS)[number];

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

// Each order of groups: pieces or amount largest first, or by label (dates oldest first), ties by key.
const GROUP_ORDER: Record<PieceSort, string> = {
  pieces: "pieces DESC, key",
  amount: "cents DESC, key",
  date: "label, key",
  name: "label, key",
};

// Each order of records, with the expression its cursor carries; ties newest first by id.
const RECORD_ORDER: Partial<Record<PieceSort, string>> = {
  date: "r.work_date",
  pieces: "r.quantity",
  amount: "r.quantity * r.unit_price_cents",
};

const FROM = `FROM piece_records r
  JOIN employees e ON e.id = r.employee_id AND e.tenant_id = r.tenant_id
  JOIN processes p ON p.id = r.process_id AND p.tenant_id = r.tenant_id
  JOIN styles s ON s.id = p.style_id AND s.tenant_id = r.tenant_id
  JOIN orders o ON o.id = r.order_id AND o.tenant_id = r.tenant_id`;

/** What a query of piece records lists: the records, the subtotals, or both. */
export interface PieceListing {
  groupBy?: Grouping | undefined;
  /** Whether records are listed beside the groups (always, without `groupBy`). */
  withRecords: boolean;
  sortBy?: PieceSort | undefined;
  /** At most this many of the listed rows (groups, or records without groups), and no cursor: a ranking. */
  top?: number | undefined;
  limit: number;
  cursor?: string | undefined;
}

/**
 * Piece records of one workshop with totals over every matching record (not just this page) and,
 * when asked, subtotals per employee, process, order or date: the records newest first (or by
 * pieces or amount), the groups by pieces (or amount, or label). With `groupBy` the groups are
 * the listing (paged by the cursor, or cut at `top`) and records come only when asked for.
 * `employeeId` is already the caller's own for staff: scoping is the caller's job, in the query.
 */
export async function queryPieceRecords({
  business,
  tenantId,
  employeeId,
  processIds,
  orderId,
  dates,
  listing,
}: {
  business: BusinessService;
  tenantId: string;
  employeeId?: string | undefined;
  /** Several when one name is a process of several styles (裁剪 of every style). */
  processIds?: string[] | undefined;
  orderId?: string | undefined;
  dates: DateRange | null;
  listing: PieceListing;
}): Promise<{
  items?: PieceRecordRow[];
  next_cursor: string | null;
  totals: PieceTotals & { groups?: number };
  groups?: PieceGroup[];
}> {
  const { groupBy, withRecords, top, limit, cursor } = listing;
  const listRecords = !groupBy || withRecords;
  const sort = listing.sortBy ?? (groupBy ? "pieces" : "date");
  const recordOrder = RECORD_ORDER[listRecords && !groupBy ? sort : "date"];
  if (!recordOrder) {
    throw new AppError("invalid_input", `sort_by '${sort}' orders groups; records sort by date, pieces or amount.`);
  }
  const w = new Where();
  w.add(`r.tenant_id = ${w.param(tenantId)}`);
  if (employeeId) w.add(`r.employee_id = ${w.param(employeeId)}`);
  if (processIds?.length) w.add(`r.process_id IN (${processIds.map((id) => w.param(id)).join(", ")})`);
  if (orderId) w.add(`r.order_id = ${w.param(orderId)}`);
  if (dates) w.add(`r.work_date BETWEEN ${w.param(dates.from)} AND ${w.param(dates.to)}`);
  // The cursor pages what is listed first: the groups when grouped, else the records.
  const recordSort = groupBy ? "date" : sort;
  const recordCursor = !groupBy && cursor && top === undefined ? decodeCursor(cursor, 3) : null;
  const groupOffset = groupBy && cursor && top === undefined ? groupCursorOffset(cursor, sort) : 0;
  if (recordCursor && recordCursor[0] !== recordSort) throw cursorOfAnotherSort();
  const p = w.copy();
  if (recordCursor) {
    const value = recordCursor[1] as string | number;
    p.add(`(${recordOrder}, r.id) < (${p.param(value)}, ${p.param(String(recordCursor[2]))})`);
  }
  const recordLimit = groupBy ? limit : (top ?? limit);
  const db = business.db;
  const statements = [
    db
      .prepare(
        `SELECT COUNT(*) AS records, COALESCE(SUM(r.quantity), 0) AS pieces, COALESCE(SUM(r.quantity * r.unit_price_cents), 0) AS cents
           FROM piece_records r WHERE ${w.sql}`,
      )
      .bind(...w.params),
  ];
  if (listRecords) {
    statements.push(
      db
        .prepare(
          `SELECT r.id, r.work_date, r.quantity, r.unit_price_cents, r.entered_by, e.id AS employee_id, e.name AS employee_name,
                  p.id AS process_id, p.name AS process_name, s.code AS style_code, s.name AS style_name, o.id AS order_id,
                  o.order_no, ${recordOrder} AS sort_value
             ${FROM} WHERE ${p.sql} ORDER BY ${recordOrder} DESC, r.id DESC LIMIT ${recordLimit + 1}`,
        )
        .bind(...p.params),
    );
  }
  const shownGroups = top ?? limit;
  if (groupBy) {
    const g = GROUP_SQL[groupBy];
    statements.push(
      db
        .prepare(
          `SELECT ${g.key} AS key, ${g.label} AS label, COUNT(*) AS records, SUM(r.quantity) AS pieces,
                  SUM(r.quantity * r.unit_price_cents) AS cents, COUNT(*) OVER () AS groups
             ${FROM} WHERE ${w.sql} GROUP BY ${g.key} ORDER BY ${GROUP_ORDER[sort]} LIMIT ${shownGroups} OFFSET ${groupOffset}`,
        )
        .bind(...w.params),
    );
  }
  const [totals, ...lists] = await db.batch<Record<string, unknown>>(statements);
  const rows = listRecords ? lists.shift() : undefined;
  const groupRows = groupBy ? lists.shift() : undefined;
  const t = totals?.results[0] ?? {};
  const out: Awaited<ReturnType<typeof queryPieceRecords>> = {
    next_cursor: null,
    totals: { records: Number(t.records ?? 0), pieces: Number(t.pieces ?? 0), amount: money(Number(t.cents ?? 0)) },
  };
  if (rows) {
    const paged = page(rows.results, recordLimit, (r) => [recordSort, r.sort_value as string | number, String(r.id)]);
    out.items = paged.items.map(recordRow);
    if (!groupBy && top === undefined) out.next_cursor = paged.next_cursor;
  }
  if (groupRows) {
    out.groups = groupRows.results.map((g) => ({
      key: String(g.key),
      label: String(g.label),
      records: Number(g.records),
      pieces: Number(g.pieces),
      amount: money(Number(g.cents)),
    }));
    out.totals.groups = Number(groupRows.results[0]?.groups ?? 0);
    if (top === undefined && groupOffset + shownGroups < out.totals.groups) {
      out.next_cursor = encodeCursor(["groups", sort, groupOffset + shownGroups]);
    }
  }
  return out;
}

function recordRow(r: Record<string, unknown>): PieceRecordRow {
  return {
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
  };
}

function cursorOfAnotherSort(): AppError {
  return new AppError(
    "invalid_input",
    "This cursor belongs to another listing: pass next_cursor with the same sort_by and group_by.",
  );
}

function groupCursorOffset(cursor: string, sort: PieceSort): number {
  const [kind, sortedBy, offset] = decodeCursor(cursor, 3);
  if (kind !== "groups" || sortedBy !== sort || typeof offset !== "number" || !Number.isInteger(offset) || offset < 0) {
    throw cursorOfAnotherSort();
  }
  return offset;
}
