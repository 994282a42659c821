import { addMonths } from "../../business/local-time.ts";
import { findOrderNo } from "./entities.ts";

// The changes of a workshop's own data a boss says in a sentence, read into
// `prepare_business_change`: 新来了一个员工叫王强，电话 138…; 2026-001 做完了; 把 2026-005 取消，客户不要了;
// 给李娟这个月加 50 块全勤奖; 扣张敏 20 块. Each only prepares: the person says yes on the card.

const NAME = "([\\p{Script=Han}]{2,4}?)";
const NEW_EMPLOYEE = new RegExp(
  `新来了?(?:一个|一位|个|位)?(?:新)?(?:员工|工人|师傅)?[，,]?(?:叫|名叫|名字叫)${NAME}(?=[，,。\\s]|电话|手机|$)`,
  "u",
);
const PHONE = /(?:电话|手机|手机号)[：:\s是]*(\+?\d[\d\s-]{4,18}\d)/;
// 做完了 / 完工了 says an order is done; a question about it ("做完了吗", "是否已完成") is a lookup.
const ORDER_DONE = /(?:做完了|完工了|已经完成了|全部完成了)[。！!]?\s*$/;
const ORDER_CANCEL = /(?:把|将)?\s*(?:订单)?\s*\S*?\s*取消(?:掉|了)?[，,。\s]*(.*)$/;
const MONEY = "(\\d+(?:\\.\\d{1,2})?)\\s*(?:块钱?|元)";
const ALLOWANCE = new RegExp(`给${NAME}(这个月|本月|上个月)?(?:加|补|发)(?:了)?\\s*${MONEY}(.*)$`, "u");
const DEDUCTION = new RegExp(`(?:扣|罚)${NAME}(这个月|本月|上个月)?\\s*${MONEY}(.*)$`, "u");

const trimReason = (text: string) => text.replace(/^[的，,。\s]+|[。！!\s]+$/g, "").slice(0, 100);
const monthOf = (said: string | undefined, today: string) => (said === "上个月" ? addMonths(today, -1) : today.slice(0, 7));

/** The change of the workshop's own data a sentence asks for, or `null` when it asks none. */
export function chooseBusinessChange(text: string, today: string): { toolName: string; args: Record<string, unknown> } | null {
  if (/吗|？|\?|是否|有没有/.test(text)) return null;
  const hired = NEW_EMPLOYEE.exec(text);
  if (hired) {
    const phone = PHONE.exec(text)?.[1];
    return { toolName: "prepare_business_change", args: { change: "employee_add", name: hired[1], ...(phone ? { phone } : {}) } };
  }
  const order = findOrderNo(text);
  if (order !== null && ORDER_DONE.test(text)) {
    return { toolName: "prepare_business_change", args: { change: "order", order, status: "completed" } };
  }
  const cancel = order !== null ? ORDER_CANCEL.exec(text) : null;
  if (order !== null && cancel) {
    const reason = trimReason(cancel[1] ?? "");
    return {
      toolName: "prepare_business_change",
      args: { change: "order", order, status: "cancelled", ...(reason ? { reason } : {}) },
    };
  }
  for (const [pattern, kind] of [
    [ALLOWANCE, "allowance"],
    [DEDUCTION, "deduction"],
  ] as const) {
    const found = pattern.exec(text);
    if (!found) continue;
    const reason = trimReason(found[4] ?? "");
    return {
      toolName: "prepare_business_change",
      args: {
        change: "adjustment_add",
        employee: found[1],
        kind,
        amount: Number(found[3]),
        month: monthOf(found[2], today),
        ...(reason ? { reason } : {}),
      },
    };
  }
  return null;
}
