import { decodeCursor, encodeCursor } from "../cursor.ts";
import { AppError } from "../errors.ts";
import { monthRange } from "./local-time.ts";
import { money } from "./money.ts";
import type { BusinessService } from "./service.ts";

type Money = { cents: number; yuan: string };

export interface PayrollLine {
  process: { id: string; name: string; style_code: string };
  unit_price: Money;
  pieces: number;
  amount: Money;
}

export interface PayrollAdjustment {
  /** What `prepare_business_change` (adjustment_remove) takes back one entered by mistake by. */
  id: string;
  kind: "allowance" | "deduction";
  amount: Money;
  reason: string;
}

/** One employee's pay for a month: piece wages + allowances − deductions. */
export interface Payslip {
  employee: { id: string; name: string; employee_no: string };
  pieces: number;
  piece_wage: Money;
  allowances: Money;
  deductions: Money;
  net_pay: Money;
  /** Per process and unit price; left out unless asked for (`withLines`). */
  lines?: PayrollLine[];
  adjustments: PayrollAdjustment[];
}

/** How payslips are ordered: by employee number (the default), or pieces or net pay, largest first. */
export const PAYROLL_SORTS = ["employee_no", "pieces", "net_pay"] as const;
export type PayrollSort = (typeof PAYROLL_SORTS)[number];

export type PayrollTotals = {
  employees: number;
  pieces: number;
  piece_wage: Money;
  allowances: Money;
  deductions: Money;
  net_pay: Money;
};

/**
 * Payroll for one workshop and month (`YYYY-MM`, the workshop's local month): piece wages from
 * each record's quantity × the unit price recorded with it, then 补贴 added and 扣款 taken off.
 * One payslip per employee who has records or adjustments that month, by employee number unless
 * `sortBy` says otherwise; `top` keeps the first few (a ranking, no cursor), else pages of `limit`.
 */
export async function queryPayroll({
  business,
  tenantId,
  month,
  employeeId,
  sortBy = "employee_no",
  top,
  withLines,
  limit,
  cursor,
}: {
  business: BusinessService;
  tenantId: string;
  month: string;
  employeeId?: string | undefined;
  sortBy?: PayrollSort | undefined;
  top?: number | undefined;
  withLines: boolean;
  limit: number;
  cursor?: string | undefined;
}): Promise<{ items: Payslip[]; next_cursor: string | null; totals: PayrollTotals }> {
  const { from, to } = monthRange(month);
  const one = (clause: string) => (employeeId ? ` AND ${clause}` : "");
  const db = business.db;
  const [lines, adjustments, employees] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT r.employee_id, r.process_id, p.name, s.code, r.unit_price_cents, SUM(r.quantity) AS pieces
           FROM piece_records r
           JOIN processes p ON p.id = r.process_id AND p.tenant_id = r.tenant_id
           JOIN styles s ON s.id = p.style_id AND s.tenant_id = r.tenant_id
          WHERE r.tenant_id = ?1 AND r.work_date BETWEEN ?2 AND ?3${one("r.employee_id = ?4")}
          GROUP BY r.employee_id, r.process_id, r.unit_price_cents ORDER BY s.code, p.sort_order, r.unit_price_cents`,
      )
      .bind(tenantId, from, to, ...(employeeId ? [employeeId] : [])),
    db
      .prepare(
        `SELECT id, employee_id, kind, amount_cents, reason FROM payroll_adjustments
          WHERE tenant_id = ?1 AND month = ?2 AND removed_at IS NULL${one("employee_id = ?3")} ORDER BY created_at, id`,
      )
      .bind(tenantId, month, ...(employeeId ? [employeeId] : [])),
    db
      .prepare(`SELECT id, name, employee_no FROM employees WHERE tenant_id = ?1${one("id = ?2")}`)
      .bind(tenantId, ...(employeeId ? [employeeId] : [])),
  ]);
  const slips = new Map<string, Payslip>();
  const names = new Map((employees?.results ?? []).map((e) => [String(e.id), e]));
  const slipOf = (id: string): Payslip => {
    let slip = slips.get(id);
    if (!slip) {
      const e = names.get(id) ?? {};
      slip = {
        employee: { id, name: String(e.name ?? ""), employee_no: String(e.employee_no ?? "") },
        pieces: 0,
        piece_wage: money(0),
        allowances: money(0),
        deductions: money(0),
        net_pay: money(0),
        lines: [],
        adjustments: [],
      };
      slips.set(id, slip);
    }
    return slip;
  };
  for (const l of lines?.results ?? []) {
    const slip = slipOf(String(l.employee_id));
    const pieces = Number(l.pieces);
    const cents = pieces * Number(l.unit_price_cents);
    slip.lines?.push({
      process: { id: String(l.process_id), name: String(l.name), style_code: String(l.code) },
      unit_price: money(Number(l.unit_price_cents)),
      pieces,
      amount: money(cents),
    });
    slip.pieces += pieces;
    slip.piece_wage = money(slip.piece_wage.cents + cents);
  }
  for (const a of adjustments?.results ?? []) {
    const slip = slipOf(String(a.employee_id));
    const kind = a.kind as PayrollAdjustment["kind"];
    const cents = Number(a.amount_cents);
    slip.adjustments.push({
      id: String(a.id),
      kind,
      amount: money(cents),
      reason: String(a.reason),
    });
    if (kind === "allowance") slip.allowances = money(slip.allowances.cents + cents);
    else slip.deductions = money(slip.deductions.cents + cents);
  }
  const byNumber = (a: Payslip, b: Payslip) =>
    cmp(a.employee.employee_no, b.employee.employee_no) || cmp(a.employee.id, b.employee.id);
  const all = [...slips.values()]
    .map((s) => ({ ...s, net_pay: money(s.piece_wage.cents + s.allowances.cents - s.deductions.cents) }))
    .sort((a, b) =>
      sortBy === "pieces"
        ? b.pieces - a.pieces || byNumber(a, b)
        : sortBy === "net_pay"
          ? b.net_pay.cents - a.net_pay.cents || byNumber(a, b)
          : byNumber(a, b),
    );
  const sum = (f: (s: Payslip) => number) => all.reduce((n, s) => n + f(s), 0);
  const totals = {
    employees: all.length,
    pieces: sum((s) => s.pieces),
    piece_wage: money(sum((s) => s.piece_wage.cents)),
    allowances: money(sum((s) => s.allowances.cents)),
    deductions: money(sum((s) => s.deductions.cents)),
    net_pay: money(sum((s) => s.net_pay.cents)),
  };
  const offset = cursor && top === undefined ? payslipOffset(cursor, sortBy) : 0;
  const shown = top ?? limit;
  const items = all.slice(offset, offset + shown).map(({ lines, ...slip }) => (withLines ? { ...slip, lines } : slip));
  const more = top === undefined && offset + shown < all.length;
  return {
    items,
    next_cursor: more ? encodeCursor(["payslips", sortBy, offset + shown]) : null,
    totals,
  };
}

function payslipOffset(cursor: string, sortBy: PayrollSort): number {
  const [kind, sorted, offset] = decodeCursor(cursor, 3);
  if (kind !== "payslips" || sorted !== sortBy || typeof offset !== "number" || !Number.isInteger(offset) || offset < 0) {
    throw new AppError("invalid_input", "This cursor belongs to another listing: pass next_cursor with the same sort_by.");
  }
  return offset;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
