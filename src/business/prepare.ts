import type { Prepared } from "../actions/types.ts";
import { AppError, forbidden } from "../errors.ts";
import { can, LEAST_ROLE } from "../permissions.ts";
import type { Ambiguity } from "../shapes.ts";
import type { UserContext } from "../user-context.ts";
import { employeeCandidates } from "./employees.ts";
import { addDays } from "./local-time.ts";
import { yuan } from "./money.ts";
import { matchName, settle } from "./name-match.ts";
import { OPEN_STATUSES, ORDER_STATUS_LABELS, orderCandidates } from "./orders.ts";
import { processCandidates, styleCandidates } from "./processes.ts";
import type { BusinessService } from "./service.ts";
import { callerOf, ownEmployeeId } from "./workshop.ts";
import type { OrderWrite, PieceRecordWrite } from "./writes.ts";

/** How far back a piece record may be dated: this month and last, roughly. */
const MAX_BACKDATE_DAYS = 62;

/**
 * Checks a piece record against the caller's workshop and role and resolves its names to ids,
 * writing nothing: staff record for themselves, a boss for anyone in the workshop. When the order
 * is not named and several open orders take the process, the choice is returned as an ambiguity.
 */
export async function preparePieceRecord({
  business,
  user,
  input,
}: {
  business: BusinessService;
  user: UserContext;
  input: {
    employee?: string | undefined;
    process: string;
    quantity: number;
    order?: string | undefined;
    work_date?: string | undefined;
  };
}): Promise<Prepared<PieceRecordWrite>> {
  const caller = await callerOf({ business, user });
  const { tenantId } = business;
  const ambiguities: Ambiguity[] = [];
  // The price of the day the pieces were done: a change set from a later day does not apply.
  const workDate = input.work_date ?? caller.today;
  if (workDate > caller.today)
    throw new AppError("invalid_input", `work_date ${workDate} is in the future (today is ${caller.today} in this workshop).`);
  if (workDate < addDays(caller.today, -MAX_BACKDATE_DAYS)) {
    throw new AppError(
      "invalid_input",
      `work_date ${workDate} is more than ${MAX_BACKDATE_DAYS} days ago; ask the boss to correct old records.`,
    );
  }

  const employees = await employeeCandidates({ business, tenantId });
  let employee: (typeof employees)[number] | undefined;
  if (!caller.seesAll) {
    const own = ownEmployeeId(caller);
    if (input.employee !== undefined) {
      const match = matchName(employees, input.employee);
      const named = match.kind === "found" ? [match.item] : match.kind === "ambiguous" ? match.candidates : [];
      if (!named.some((e) => e.id === own)) throw forbidden("Staff can record pieces only for themselves. Leave out employee.");
    }
    employee = employees.find((e) => e.id === own);
  } else {
    if (input.employee === undefined) {
      throw new AppError("invalid_input", "Say whose pieces these are: employee is required when a boss records pieces.");
    }
    const settled = settle(employees, input.employee, "employees", "employee");
    if (settled.ambiguity) ambiguities.push(settled.ambiguity);
    employee = settled.item;
  }
  if (employee && employee.status !== "active") {
    throw new AppError("unprocessable", `${employee.name} has left the workshop; no new piece records can be made for them.`);
  }

  let order: Awaited<ReturnType<typeof orderCandidates>>[number] | undefined;
  if (input.order !== undefined) {
    const settled = settle(await orderCandidates({ business, tenantId, openOnly: false }), input.order, "orders", "order");
    if (settled.ambiguity) ambiguities.push(settled.ambiguity);
    order = settled.item;
    if (order && !OPEN_STATUSES.includes(order.status)) {
      throw new AppError(
        "unprocessable",
        `Order ${order.orderNo} is ${ORDER_STATUS_LABELS[order.status]} and takes no more piece records.`,
      );
    }
  }

  const processes = await processCandidates({ business, tenantId, styleId: order?.styleId, day: workDate });
  const settledProcess = settle(processes, input.process, order ? "processes of this order's style" : "processes", "process");
  if (settledProcess.ambiguity) ambiguities.push(settledProcess.ambiguity);
  const process = settledProcess.item;
  if (process && !process.active) {
    throw new AppError("unprocessable", `The process ${process.label} is disabled; ask the boss to enable it or choose another.`);
  }

  if (process && !order && input.order === undefined) {
    const open = await orderCandidates({ business, tenantId, openOnly: true, styleId: process.styleId });
    if (open.length === 0) {
      throw new AppError(
        "unprocessable",
        `No open order (待生产 or 生产中) is of style ${process.styleLabel}, so there is nothing to record ${process.name} against.`,
      );
    }
    if (open.length === 1) order = open[0];
    else {
      ambiguities.push({
        field: "order",
        message: `Several open orders go through ${process.name}. Ask the user which order the pieces belong to, then prepare again with order set to the chosen id or order number.`,
        candidates: open.map(({ id, label }) => ({ id, label })),
      });
    }
  }

  const preview = [
    { label: "员工", value: employee ? employee.label : "待选择" },
    { label: "工序", value: process ? `${process.name} (${process.styleLabel})` : "待选择" },
    { label: "数量", value: `${input.quantity} 件` },
    { label: "订单", value: order ? order.label : "待选择" },
    { label: "单价", value: process ? `${yuan(process.unitPriceCents)} 元/件` : "待定" },
    { label: "金额", value: process ? `${yuan(process.unitPriceCents * input.quantity)} 元` : "待定" },
    { label: "日期", value: workDate },
  ];
  if (caller.seesAll && employee && employee.userId !== user.userId) preview.push({ label: "登记人", value: "老板代登记" });
  if (order && process) {
    const over = await overQuantity({ business, tenantId, orderId: order.id, processId: process.id, adding: input.quantity });
    if (over) preview.push({ label: "提示", value: over });
  }

  return {
    kind: "piece_record",
    write:
      employee && process && order && ambiguities.length === 0
        ? {
            employeeId: employee.id,
            processId: process.id,
            orderId: order.id,
            quantity: input.quantity,
            unitPriceCents: process.unitPriceCents,
            workDate,
          }
        : null,
    summary: `计件登记：${employee?.name ?? "?"} ${process?.name ?? input.process} ${input.quantity} 件${process ? `，金额 ${yuan(process.unitPriceCents * input.quantity)} 元` : ""}`,
    preview,
    // Recording for someone else is the workshop-wide permission's; one's own pieces anyone's.
    needs: caller.seesAll && employee?.userId !== user.userId ? LEAST_ROLE["business:workshop"] : "staff",
    ambiguities,
  };
}

/** The guide's over-quantity warning: it does not block, the boss decides when reviewing. */
async function overQuantity({
  business,
  tenantId,
  orderId,
  processId,
  adding,
}: {
  business: BusinessService;
  tenantId: string;
  orderId: string;
  processId: string;
  adding: number;
}): Promise<string | null> {
  const row = await business.db
    .prepare(
      `SELECT o.quantity, (SELECT COALESCE(SUM(quantity), 0) FROM piece_records
                            WHERE tenant_id = ?1 AND order_id = ?2 AND process_id = ?3) AS done
         FROM orders o WHERE o.id = ?2 AND o.tenant_id = ?1`,
    )
    .bind(tenantId, orderId, processId)
    .first<{ quantity: number; done: number }>();
  if (!row || row.done + adding <= row.quantity) return null;
  return `超出订单数量：这道工序已登记 ${row.done} 件，加上本次 ${adding} 件超过订单的 ${row.quantity} 件`;
}

/** Checks a new order (boss only) and resolves its style, writing nothing. */
export async function prepareOrder({
  business,
  user,
  input,
}: {
  business: BusinessService;
  user: UserContext;
  input: { customer: string; style: string; quantity: number; due_date: string; note?: string | undefined };
}): Promise<Prepared<OrderWrite>> {
  if (!can(user, "orders:write")) throw forbidden("Only a boss can create orders.");
  const caller = await callerOf({ business, user });
  if (input.due_date < caller.today) {
    throw new AppError("invalid_input", `due_date ${input.due_date} is before today (${caller.today} in this workshop).`);
  }
  const settled = settle(await styleCandidates({ business, tenantId: business.tenantId }), input.style, "styles", "style");
  const style = settled.item;
  const note = input.note ?? "";
  return {
    kind: "order",
    write: style
      ? {
          customer: input.customer,
          styleId: style.id,
          quantity: input.quantity,
          dueDate: input.due_date,
          note,
          timeZone: caller.timeZone,
        }
      : null,
    summary: `新建订单：${input.customer} ${style?.label ?? input.style} ${input.quantity} 件，${input.due_date} 交货`,
    preview: [
      { label: "客户", value: input.customer },
      { label: "款式", value: style?.label ?? "待选择" },
      { label: "数量", value: `${input.quantity} 件` },
      { label: "交货日期", value: input.due_date },
      { label: "备注", value: note || "无" },
      { label: "订单号", value: "确认后自动生成（年份-序号）", until_written: true },
    ],
    ambiguities: settled.ambiguity ? [settled.ambiguity] : [],
    needs: LEAST_ROLE["orders:write"],
  };
}
