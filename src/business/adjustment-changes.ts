import type { Executor, Prepared } from "../actions/types.ts";
import { AppError } from "../errors.ts";
import type { PreviewField } from "../shapes.ts";
import type { UserContext } from "../user-context.ts";
import { auditStatement, executeOnce, guard, MANAGER, requireManager, writtenByAudit } from "./changes.ts";
import { employeeCandidates } from "./employees.ts";
import { addMonths } from "./local-time.ts";
import { money, yuan } from "./money.ts";
import { settle } from "./name-match.ts";
import { queryPayroll } from "./payroll.ts";
import type { BusinessService } from "./service.ts";
import { centsOf, textOf } from "./values.ts";
import { callerOf } from "./workshop.ts";

// 补贴 (allowance) and 扣款 (deduction) for an employee and month, with a reason: a boss enters one,
// or takes back one entered by mistake (it stays, out of every payslip, and its audit reads whole).

export const ADJUSTMENT_CHANGES = ["add", "remove"] as const;
export const ADJUSTMENT_KINDS = ["allowance", "deduction"] as const;
export type AdjustmentKind = (typeof ADJUSTMENT_KINDS)[number];

const KIND_WORDS: Record<AdjustmentKind, string> = { allowance: "补贴", deduction: "扣款" };

export interface AdjustmentInput {
  change: (typeof ADJUSTMENT_CHANGES)[number];
  employee?: string | undefined;
  kind?: AdjustmentKind | undefined;
  amount?: number | undefined;
  month?: string | undefined;
  reason?: string | undefined;
  adjustment?: string | undefined;
}

/** A 补贴 or 扣款 entered, or one taken back, checked, waiting to be written. */
export type AdjustmentWrite =
  | { change: "add"; employeeId: string; who: string; kind: AdjustmentKind; amountCents: number; month: string; reason: string }
  | {
      change: "remove";
      adjustmentId: string;
      who: string;
      kind: AdjustmentKind;
      amountCents: number;
      month: string;
      reason: string;
    };

/** What the employee's pay for the month comes to now, and with the change. */
async function netPay(business: BusinessService, employeeId: string, month: string): Promise<number> {
  const { items } = await queryPayroll({ business, tenantId: business.tenantId, month, employeeId, withLines: false, limit: 1 });
  return items[0]?.net_pay.cents ?? 0;
}

/**
 * Checks a 补贴 or 扣款 (boss only) and previews it with the employee's net pay for the month
 * before and after, writing nothing: `add` one (this month unless said, from a year back to next
 * month), or `remove` one entered by mistake, by its id (`query_payroll` lists them).
 */
export async function prepareAdjustment({
  business,
  user,
  input,
}: {
  business: BusinessService;
  user: UserContext;
  input: AdjustmentInput;
}): Promise<Prepared<AdjustmentWrite>> {
  requireManager(user);
  const caller = await callerOf({ business, user });
  const thisMonth = caller.today.slice(0, 7);
  if (input.change === "remove") {
    if (input.adjustment === undefined)
      throw new AppError("invalid_input", "adjustment: give the id of the 补贴 or 扣款 to take back (query_payroll lists them).");
    const row = await business.db
      .prepare(
        `SELECT a.id, a.employee_id, a.month, a.kind, a.amount_cents, a.reason, a.removed_at, e.name, e.employee_no
           FROM payroll_adjustments a JOIN employees e ON e.id = a.employee_id AND e.tenant_id = a.tenant_id
          WHERE a.id = ?1 AND a.tenant_id = ?2`,
      )
      .bind(input.adjustment, business.tenantId)
      .first<{
        id: string;
        employee_id: string;
        month: string;
        kind: AdjustmentKind;
        amount_cents: number;
        reason: string;
        removed_at: string | null;
        name: string;
        employee_no: string;
      }>();
    if (!row) throw new AppError("not_found", `No 补贴 or 扣款 '${input.adjustment.slice(0, 100)}' in this workshop.`);
    if (row.removed_at) throw new AppError("unprocessable", "This 补贴 or 扣款 was already taken back.");
    const who = `${row.name}（工号 ${row.employee_no}）`;
    const net = await netPay(business, row.employee_id, row.month);
    const sign = row.kind === "allowance" ? -1 : 1;
    return {
      kind: "adjustment",
      write: {
        change: "remove",
        adjustmentId: row.id,
        who,
        kind: row.kind,
        amountCents: row.amount_cents,
        month: row.month,
        reason: row.reason,
      },
      summary: `撤销${KIND_WORDS[row.kind]}：${row.name} ${row.month} ${yuan(row.amount_cents)} 元${row.reason ? `（${row.reason}）` : ""}`,
      preview: [
        { label: "员工", value: who },
        { label: "撤销", value: `${KIND_WORDS[row.kind]} ${yuan(row.amount_cents)} 元${row.reason ? `，${row.reason}` : ""}` },
        { label: "月份", value: row.month },
        { label: "当月实发", value: `${yuan(net)} → ${yuan(net + sign * row.amount_cents)} 元` },
      ],
      ambiguities: [],
      needs: MANAGER,
    };
  }
  if (input.employee === undefined || input.kind === undefined || input.amount === undefined) {
    throw new AppError("invalid_input", "employee, kind and amount: say whose 补贴 or 扣款 it is and how much (in yuan).");
  }
  const amountCents = centsOf(input.amount, "amount", { min: 1 });
  const month = input.month ?? thisMonth;
  if (month > addMonths(thisMonth, 1) || month < addMonths(thisMonth, -12)) {
    throw new AppError(
      "invalid_input",
      `month ${month} is more than a year back or after next month (this month is ${thisMonth}).`,
    );
  }
  const reason = input.reason === undefined ? "" : textOf(input.reason, "reason", 100);
  const settled = settle(
    await employeeCandidates({ business, tenantId: business.tenantId }),
    input.employee,
    "employees",
    "employee",
  );
  const words = KIND_WORDS[input.kind];
  if (settled.ambiguity) {
    return {
      kind: "adjustment",
      write: null,
      summary: `${words}：${input.employee} ${yuan(amountCents)} 元`,
      preview: [{ label: "员工", value: "待选择" }],
      ambiguities: [settled.ambiguity],
      needs: MANAGER,
    };
  }
  const employee = settled.item;
  const net = await netPay(business, employee.id, month);
  const preview: PreviewField[] = [
    { label: "员工", value: employee.label },
    { label: "类型", value: words },
    { label: "金额", value: `${yuan(amountCents)} 元` },
    { label: "月份", value: month === thisMonth ? `${month}（本月）` : month },
    { label: "原因", value: reason || "未说明" },
    { label: "当月实发", value: `${yuan(net)} → ${yuan(net + (input.kind === "allowance" ? amountCents : -amountCents))} 元` },
  ];
  return {
    kind: "adjustment",
    write: { change: "add", employeeId: employee.id, who: employee.label, kind: input.kind, amountCents, month, reason },
    summary: `${words}：${employee.name} ${month} ${yuan(amountCents)} 元${reason ? `（${reason}）` : ""}`,
    preview,
    ambiguities: [],
    needs: MANAGER,
  };
}

/** Writes a confirmed 补贴 or 扣款, or takes one back, with its audit entry in the same batch. */
export function adjustmentExecutor(business: BusinessService): Executor<AdjustmentWrite> {
  const { db } = business;
  return {
    kind: "adjustment",
    label: { zh: "补贴扣款", en: "Allowance or deduction" },
    written: ({ actionId, owner }) => writtenByAudit(db, actionId, owner.tenantId),
    execute: ({ actionId, owner, write, summary, approval }) => {
      const tenantId = owner.tenantId;
      const entry = { owner, actionId, kind: "adjustment", summary, approval };
      const values = {
        employee: write.who,
        kind: write.kind,
        amount: money(write.amountCents),
        month: write.month,
        reason: write.reason,
      };
      if (write.change === "remove") {
        return executeOnce({
          db,
          actionId,
          tenantId,
          stale: async () => {
            const row = await db
              .prepare("SELECT removed_at FROM payroll_adjustments WHERE id = ?1 AND tenant_id = ?2")
              .bind(write.adjustmentId, tenantId)
              .first<{ removed_at: string | null }>();
            return row?.removed_at === null ? null : "准备之后，这笔补贴或扣款已经被撤销了。这次没有写入。";
          },
          statements: () => [
            guard(
              db,
              "EXISTS (SELECT 1 FROM payroll_adjustments WHERE id = ?1 AND tenant_id = ?2 AND removed_at IS NULL)",
              write.adjustmentId,
              tenantId,
            ),
            db
              .prepare(
                `UPDATE payroll_adjustments SET removed_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), removed_by = ?3
                  WHERE id = ?1 AND tenant_id = ?2 AND removed_at IS NULL`,
              )
              .bind(write.adjustmentId, tenantId, owner.userId),
            auditStatement(
              db,
              { ...entry, entityId: write.adjustmentId },
              { json: { before: values, after: { ...values, removed: true } } },
            ),
          ],
        });
      }
      const id = `adj-${actionId.slice(0, 32)}`;
      return executeOnce({
        db,
        actionId,
        tenantId,
        stale: async () => {
          const row = await db
            .prepare("SELECT 1 FROM employees WHERE id = ?1 AND tenant_id = ?2")
            .bind(write.employeeId, tenantId)
            .first();
          return row ? null : `${write.who}的档案已经不存在了。这次没有写入。`;
        },
        statements: () => [
          db
            .prepare(
              `INSERT INTO payroll_adjustments (id, tenant_id, employee_id, month, kind, amount_cents, reason, created_by, action_id)
               VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)`,
            )
            .bind(
              id,
              tenantId,
              write.employeeId,
              write.month,
              write.kind,
              write.amountCents,
              write.reason,
              owner.userId,
              actionId,
            ),
          auditStatement(db, { ...entry, entityId: id }, { json: { before: null, after: values } }),
        ],
      });
    },
  };
}
