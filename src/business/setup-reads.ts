import { AppError } from "../errors.ts";
import type { AdjustmentView, EmployeeView, OrderView, PriceView, StyleView } from "../shapes.ts";
import { money } from "./money.ts";
import { nextPrice, priceHistories, priceOn } from "./prices.ts";
import type { BusinessService } from "./service.ts";

// What Settings → 车间资料 lists for a boss: every record a change is made to, each with the version
// it is changed against. Lists are bounded (a workshop of a few hundred people and a few thousand
// processes fits many times over), and say when they are cut.

/** Rows a list of the settings holds at most. */
export const SETUP_LIST_MAX = 2_000;

/** The workshop's employees, those who work there first, by 工号. */
export async function employeeViews(business: BusinessService): Promise<EmployeeView[]> {
  const { results } = await business.db
    .prepare(
      `SELECT id, name, employee_no, phone, status, left_on, person_id IS NOT NULL AS has_login, version FROM employees
        WHERE tenant_id = ?1 ORDER BY status = 'left', employee_no, id LIMIT ${SETUP_LIST_MAX}`,
    )
    .bind(business.tenantId)
    .all<Omit<EmployeeView, "has_login"> & { has_login: number }>();
  return results.map((r) => ({ ...r, has_login: r.has_login === 1 }));
}

/**
 * The workshop's styles by code, each with its processes in the order they are done: today's
 * price, the next change already set, and every price each has had (`set_by` a person's id, for
 * the caller to name).
 */
export async function styleViews(business: BusinessService, today: string): Promise<StyleView[]> {
  const { db, tenantId } = business;
  const [styles, processes] = await db.batch<Record<string, unknown>>([
    db
      .prepare(`SELECT id, code, name, version FROM styles WHERE tenant_id = ?1 ORDER BY code LIMIT ${SETUP_LIST_MAX}`)
      .bind(tenantId),
    db
      .prepare(
        `SELECT id, style_id, name, active, version FROM processes WHERE tenant_id = ?1 ORDER BY sort_order, id LIMIT ${SETUP_LIST_MAX}`,
      )
      .bind(tenantId),
  ]);
  const histories = await priceHistories({ business, processIds: (processes?.results ?? []).map((p) => String(p.id)) });
  const byStyle = new Map<string, StyleView>();
  for (const s of styles?.results ?? []) {
    byStyle.set(String(s.id), {
      id: String(s.id),
      code: String(s.code),
      name: String(s.name),
      version: Number(s.version),
      processes: [],
    });
  }
  for (const p of processes?.results ?? []) {
    const history = histories.get(String(p.id)) ?? [];
    const next = nextPrice(history, today);
    const prices: PriceView[] = history.map(({ unit_price, from, set_at, set_by, replaced }) => ({
      unit_price,
      from,
      set_at,
      set_by,
      replaced,
    }));
    byStyle.get(String(p.style_id))?.processes.push({
      id: String(p.id),
      name: String(p.name),
      active: p.active === 1,
      unit_price: priceOn(history, today)?.unit_price ?? money(0),
      next_price: next?.from ? { unit_price: next.unit_price, from: next.from } : null,
      prices,
      version: Number(p.version),
    });
  }
  return [...byStyle.values()];
}

/** The workshop's orders, open ones (待生产, 生产中) unless `all`, by due date. */
export async function orderViews(business: BusinessService, { all }: { all: boolean }): Promise<OrderView[]> {
  const { results } = await business.db
    .prepare(
      `SELECT o.id, o.order_no, o.customer, s.code || ' ' || s.name AS style, o.quantity, o.due_date, o.status, o.note,
              o.cancel_reason, o.version
         FROM orders o JOIN styles s ON s.id = o.style_id AND s.tenant_id = o.tenant_id
        WHERE o.tenant_id = ?1 ${all ? "" : "AND o.status IN ('pending', 'in_production')"}
        ORDER BY o.due_date, o.id LIMIT ${SETUP_LIST_MAX}`,
    )
    .bind(business.tenantId)
    .all<OrderView>();
  return results;
}

/** The 补贴 and 扣款 of a month (`YYYY-MM`) not taken back, by when they were entered. */
export async function adjustmentViews(business: BusinessService, month: string): Promise<AdjustmentView[]> {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw new AppError("invalid_input", "month must be YYYY-MM.");
  const { results } = await business.db
    .prepare(
      `SELECT a.id, a.employee_id, e.name, e.employee_no, a.kind, a.amount_cents, a.reason, a.created_at
         FROM payroll_adjustments a JOIN employees e ON e.id = a.employee_id AND e.tenant_id = a.tenant_id
        WHERE a.tenant_id = ?1 AND a.month = ?2 AND a.removed_at IS NULL ORDER BY a.created_at, a.id LIMIT ${SETUP_LIST_MAX}`,
    )
    .bind(business.tenantId, month)
    .all<{
      id: string;
      employee_id: string;
      name: string;
      employee_no: string;
      kind: AdjustmentView["kind"];
      amount_cents: number;
      reason: string;
      created_at: string;
    }>();
  return results.map((r) => ({
    id: r.id,
    employee: { id: r.employee_id, name: r.name, employee_no: r.employee_no },
    kind: r.kind,
    amount: money(r.amount_cents),
    reason: r.reason,
    created_at: r.created_at,
  }));
}
