import { z } from "zod";
import type { Prepared } from "../actions/types.ts";
import { ADJUSTMENT_KINDS, prepareAdjustment } from "../business/adjustment-changes.ts";
import { prepareProcess } from "../business/catalog-changes.ts";
import { prepareEmployee } from "../business/employee-changes.ts";
import { prepareOrderUpdate } from "../business/order-changes.ts";
import { ORDER_STATUSES } from "../business/orders.ts";
import { prepareProcessPrice } from "../business/price-changes.ts";
import type { BusinessService } from "../business/service.ts";
import { prepareWorkshopSettings } from "../business/workshop-changes.ts";
import { AppError } from "../errors.ts";
import { LEAST_ROLE } from "../permissions.ts";
import type { UserContext } from "../user-context.ts";
import { ActionResultSchema } from "./action-results.ts";
import { dateField, WRITES } from "./business-fields.ts";
import { held } from "./held.ts";
import { defineTool } from "./tool.ts";
import { pick, said } from "./words.ts";

/**
 * Every change of the workshop's own data a boss makes, by what it changes. One tool, not one a
 * kind: tools/list stays within its budget (test/mcp/agent-tasks.test.ts) while the six kinds of
 * change share their fields (a name, an employee, a date).
 */
export const BUSINESS_CHANGES = [
  "employee_add",
  "employee_edit",
  "employee_leave",
  "employee_rejoin",
  "style_add",
  "style_edit",
  "process_add",
  "process_edit",
  "process_disable",
  "process_enable",
  "price",
  "order",
  "adjustment_add",
  "adjustment_remove",
  "workshop",
] as const;

export type BusinessChange = (typeof BUSINESS_CHANGES)[number];

// A name, number or id as a person gives it (matched forgivingly in the caller's workshop).
const named = z.string().trim().min(1).max(50);

export const BusinessChangeInputSchema = z.object({
  change: z.enum(BUSINESS_CHANGES).describe("What."),
  employee: named.optional().describe("员工."),
  name: z.string().max(100).optional().describe("名称."),
  employee_no: z.string().max(20).optional().describe("工号."),
  phone: z.string().max(30).optional().describe("电话."),
  style: named.optional().describe("款式."),
  code: z.string().max(20).optional().describe("款号."),
  process: named.optional().describe("工序."),
  unit_price: z.number().min(0).max(100_000).optional().describe("元."),
  date: dateField("Default today.").optional(),
  order: named.optional().describe("订单号."),
  status: z.enum(ORDER_STATUSES).optional().describe("状态."),
  quantity: z.number().int().min(1).max(1_000_000).optional().describe("件数."),
  due_date: dateField("交期.").optional(),
  note: z.string().max(500).optional().describe("备注."),
  reason: z.string().max(200).optional().describe("原因."),
  kind: z.enum(ADJUSTMENT_KINDS).optional().describe("补贴/扣款."),
  amount: z.number().min(0.01).max(100_000).optional().describe("元."),
  // Checked, not patterned: a pattern in tools/list would take more than the field.
  month: z
    .string()
    .refine((m) => /^\d{4}-(0[1-9]|1[0-2])$/.test(m), "must be YYYY-MM")
    .optional()
    .describe("YYYY-MM."),
  adjustment: named.optional().describe("Id (query_payroll)."),
  time_zone: z.string().max(60).optional().describe("IANA."),
});

export type BusinessChangeInput = z.output<typeof BusinessChangeInputSchema>;

/** A field a change cannot do without, or `invalid_input` naming it. */
function needed<T>(value: T | undefined, field: string, change: BusinessChange): T {
  if (value === undefined) throw new AppError("invalid_input", `${field}: required for change ${change}.`);
  return value;
}

/**
 * Prepares the change `input.change` names with the prepare function of its kind; `ifVersion`
 * (a form's `If-Match`) refuses it at once when the record changed since it was read.
 */
export function prepareBusinessChange({
  business,
  user,
  input,
  ifVersion,
}: {
  business: BusinessService;
  user: UserContext;
  input: BusinessChangeInput;
  ifVersion?: number[] | undefined;
}): Promise<Prepared> {
  const { change } = input;
  const args = { business, user, ifVersion };
  const [domain, verb = ""] = change.split("_", 2) as [string, string | undefined];
  switch (domain) {
    case "employee":
      return prepareEmployee({
        ...args,
        input: { ...employeeFields(input), change: verb as "add" | "edit" | "leave" | "rejoin" },
      });
    case "style":
      return prepareProcess({ ...args, input: { ...catalog(input), change: verb === "add" ? "add_style" : "edit_style" } });
    case "process":
      return prepareProcess({ ...args, input: { ...catalog(input), change: verb as "add" | "edit" | "disable" | "enable" } });
    case "price":
      return prepareProcessPrice({
        ...args,
        input: {
          process: needed(input.process, "process", change),
          style: input.style,
          unit_price: needed(input.unit_price, "unit_price", change),
          effective_from: input.date,
        },
      });
    case "order":
      return prepareOrderUpdate({
        ...args,
        input: {
          order: needed(input.order, "order", change),
          status: input.status,
          reason: input.reason,
          quantity: input.quantity,
          due_date: input.due_date,
          note: input.note,
        },
      });
    case "adjustment":
      // A 补贴 or 扣款 is added or taken back, never changed in place: it has no version to match.
      return prepareAdjustment({
        business,
        user,
        input: {
          change: verb === "remove" ? "remove" : "add",
          employee: input.employee,
          kind: input.kind,
          amount: input.amount,
          month: input.month,
          reason: input.reason,
          adjustment: input.adjustment,
        },
      });
    default:
      return prepareWorkshopSettings({ ...args, input: { name: input.name, time_zone: input.time_zone } });
  }
}

function employeeFields(input: BusinessChangeInput) {
  return { employee: input.employee, name: input.name, employee_no: input.employee_no, phone: input.phone, date: input.date };
}

function catalog(input: BusinessChangeInput) {
  return { style: input.style, process: input.process, name: input.name, code: input.code, unit_price: input.unit_price };
}

/** Changes the workshop's own data (boss): checks and previews, old → new, writes nothing. */
export const prepareBusinessChangeTool = defineTool({
  name: "prepare_business_change",
  words: {
    // A boss changes these in the chat; a request for one from staff is refused saying the boss can.
    changes: ["employee", "style", "process", "unit_price", "order", "adjustment", "workshop"],
    title: said("准备修改车间资料", "Prepare a business change"),
    icon: "write",
    lists: { preview: said("预览", "preview"), ambiguities: said("待确定", "still open") },
    fields: {
      ...pick("employee", "name", "employee_no", "style", "process", "unit_price", "order", "status", "quantity", "due_date"),
      ...pick("note", "month", "amount", "date"),
      change: said("变更", "change"),
      phone: said("电话", "phone"),
      code: said("款号", "style code"),
      reason: said("原因", "reason"),
      kind: said("类型", "kind"),
      adjustment: said("哪一笔", "which one"),
      time_zone: said("时区", "time zone"),
      employee_add: said("新增员工", "add an employee"),
      employee_edit: said("修改员工", "edit an employee"),
      employee_leave: said("离职", "leave"),
      employee_rejoin: said("复职", "rejoin"),
      style_add: said("新增款式", "add a style"),
      style_edit: said("修改款式", "change a style"),
      process_add: said("新增工序", "add a process"),
      process_edit: said("改工序名", "rename a process"),
      process_disable: said("停用工序", "disable a process"),
      process_enable: said("启用工序", "enable a process"),
      price: said("改单价", "new price"),
      adjustment_add: said("记补贴或扣款", "add an allowance or deduction"),
      adjustment_remove: said("撤销补贴或扣款", "take one back"),
      workshop: said("工作坊设置", "workshop settings"),
      allowance: said("补贴", "allowance"),
      deduction: said("扣款", "deduction"),
    },
    results: {
      // No `status`: the card's badge says the action's, and an order's would only confuse beside it
      // (the summary says what it became); `due_date` as a new order's card says it.
      ...pick("name", "employee_no", "style", "active", "process", "unit_price", "quantity", "note"),
      due_date: said("交货日期", "due date"),
      ...pick("employee", "month"),
      // Said as the piece record says it: one label a field across the cards that show results.
      amount: said("金额（元）", "amount (yuan)"),
      phone: said("电话", "phone"),
      left_on: said("离职日期", "left on"),
      code: said("款号", "style code"),
      sort_order: said("顺序", "order"),
      effective_from: said("生效日期", "from"),
      cancel_reason: said("取消原因", "reason cancelled"),
      kind: said("类型", "kind"),
      reason: said("原因", "reason"),
      time_zone: said("时区", "time zone"),
    },
    offer: said(
      "管车间资料（例如：“新来了一个员工叫王强”“上领子改成九毛，从下个月一号起”“2026-001 做完了”“给李娟这个月加50块全勤奖”，你确认后才写入）",
      'your business data ("add Wang Qiang", "collar 0.90 from the 1st", "2026-001 is done", confirmed by you)',
    ),
  },
  description:
    "Prepare a change to the workshop's own data. Fields: employee_add name, phone, employee_no (made if none); " +
    "process_add style, name, unit_price; price process, unit_price, date (from); order status (pending → " +
    "in_production → completed, or cancelled with reason), quantity, due_date, note; adjustment_add employee, kind, " +
    "amount, month, reason.",
  inputSchema: BusinessChangeInputSchema,
  outputSchema: ActionResultSchema,
  minRole: LEAST_ROLE["business:manage"],
  prepares: ["employee", "process", "process_price", "order_update", "adjustment", "workshop_settings"],
  annotations: WRITES,
  run: async (ctx, input) => held(ctx, await prepareBusinessChange({ business: ctx.services.business, user: ctx.user, input })),
});
