import { addDays, addMonths } from "../../business/local-time.ts";
import { findOrderNo, findProcess } from "./entities.ts";
import { parseNumber } from "./numbers.ts";

// The changes of a workshop's own data a boss says in a sentence, read into
// `prepare_business_change`: 新来了一个员工叫王强，电话 138…; 2026-001 做完了; 把 2026-005 取消，客户不要了;
// 给李娟这个月加 50 块全勤奖; 扣张敏 20 块; 上领子改成九毛，从下个月一号起; 把订单2026-001的数量改成900;
// 2026-001 推迟到12月20日交货; 把锁眼停用; 重新启用锁眼; A01加一道工序锁眼，单价5毛;
// 新加一个款式A03，童装衬衫; 把车间名称改成锦绣服装厂. Each only prepares: the person says yes on the card, which shows the
// old value beside the new.

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

const CN = "[零〇一二两三四五六七八九十]";
// A new unit price as said: 0.9元, 九毛, 1块2, 一块二毛, 1.2.
const PRICE_SAID = new RegExp(
  `(?:改成|改为|调成|调到|调为|变成|涨到|降到|定为|定成)\\s*(?:每件)?\\s*(?:(\\d+(?:\\.\\d{1,2})?|${CN}{1,3})\\s*(元|块钱?|毛钱?|角)?\\s*(\\d|${CN})?\\s*(?:毛|角)?)`,
  "u",
);
const PRICE_WORDS = /单价|工价|价格|价钱|毛|角|元|块/;
const QUANTITY_CHANGE =
  /(?:数量|件数)\s*(?:改成|改为|调成|调到|变成|加到|减到|增加到|减少到)\s*(\d+|[零〇一二两三四五六七八九十百千万]+)\s*件?/;
const DUE_CHANGE = /(?:推迟|延期|延后|提前|改|挪)(?:到|成|为)|交期|交货日期/;
const MONTH_DAY = /(?:(\d{4})年)?(\d{1,2})月(\d{1,2}|[一二三四五六七八九十]{1,3})[日号]?/;

// A process stopped or started again: 把锁眼停用, 停用锁眼这道工序, 重新启用锁眼. 停用了吗 asks.
const PROCESS_TOGGLE = /停用|启用/;
const TOGGLED_PROCESS = [
  /(?:把|将)\s*([\p{Script=Han}]{2,5}?)\s*(?:这道)?(?:工序)?\s*(?:停用|重新启用|启用)/u,
  /(?:停用|启用)\s*(?:工序)?\s*([\p{Script=Han}]{2,5}?)(?:这道)?(?:工序)?[。！!\s]*$/u,
];

// A price as a new process is given one, with its unit: 5毛, 0.5元, 1块2.
const PRICE_GIVEN = new RegExp(`(\\d+(?:\\.\\d{1,2})?|${CN}{1,3})\\s*(元|块钱?|毛钱?|角)\\s*(\\d|${CN})?`, "u");
const STYLE_CODE = "([A-Za-z][A-Za-z0-9-]{0,9})";
const NEW_PROCESS = new RegExp(
  `${STYLE_CODE}\\s*(?:的)?(?:款)?\\s*(?:加|添|新增|新加|增加)(?:一道|一个|道)?(?:新)?(?:工序)?[，,：:\\s]*(?:叫)?([\\p{Script=Han}]{2,5}?)(?:工序)?[，,。\\s]`,
  "u",
);
const NEW_STYLE = new RegExp(
  `(?:新加|新增|添加|加|增加|新建)(?:一个|个)?(?:新)?款式[，,：:\\s]*${STYLE_CODE}[，,：:\\s]*(?:叫|名叫|名字叫|名称)?\\s*([\\p{Script=Han}A-Za-z0-9]{2,20})`,
  "u",
);
const WORKSHOP_NAME = /(?:车间|厂)(?:的)?名[称字]\s*(?:改成|改为|换成|叫)\s*([\p{Script=Han}A-Za-z0-9（）()]{2,30})/u;

const pad = (n: number) => String(n).padStart(2, "0");

/** The amount of a said price in 元 (九毛 → 0.9, 1块2 → 1.2), or `null`. */
function priceOf(found: RegExpExecArray): number | null {
  const [, head, unit, tail] = found;
  if (!head) return null;
  const whole = /^\d/.test(head) ? Number(head) : parseNumber(head);
  if (whole === null) return null;
  const tenth = tail ? (/\d/.test(tail) ? Number(tail) : parseNumber(tail)) : 0;
  if (tenth === null) return null;
  if (unit && /毛|角/.test(unit)) return Math.round(whole * 10) / 100;
  return Math.round((whole + tenth / 10) * 100) / 100;
}

/** The day a said change takes effect from (从下个月一号起, 从12月1日起, 明天起), or `undefined` for today. */
function fromDay(text: string, today: string): string | undefined {
  if (/下个?月(?:一|1)?[号日]?|下月初/.test(text) && /下个?月|下月/.test(text)) return `${addMonths(today, 1)}-01`;
  if (/明天/.test(text)) return addDays(today, 1);
  if (/后天/.test(text)) return addDays(today, 2);
  return dayOf(text, today) ?? undefined;
}

/** A month and day said in the text (12月20日), in the year that makes it today or later. */
function dayOf(text: string, today: string): string | null {
  const found = MONTH_DAY.exec(text);
  if (!found) return null;
  const month = Number(found[2]);
  const day = /\d/.test(found[3] ?? "") ? Number(found[3]) : parseNumber(found[3] ?? "");
  if (!day || month < 1 || month > 12 || day > 31) return null;
  let year = found[1] ? Number(found[1]) : Number(today.slice(0, 4));
  if (!found[1] && `${year}-${pad(month)}-${pad(day)}` < today) year += 1;
  return `${year}-${pad(month)}-${pad(day)}`;
}

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
  if (order !== null) {
    const quantity = QUANTITY_CHANGE.exec(text);
    const count = quantity?.[1] ? parseNumber(quantity[1]) : null;
    if (count !== null) return { toolName: "prepare_business_change", args: { change: "order", order, quantity: count } };
    const due = DUE_CHANGE.test(text) ? dayOf(text, today) : null;
    if (due !== null) return { toolName: "prepare_business_change", args: { change: "order", order, due_date: due } };
  }
  const process = findProcess(text);
  const price = process !== null ? PRICE_SAID.exec(text) : null;
  if (process !== null && price && PRICE_WORDS.test(text)) {
    const unitPrice = priceOf(price);
    const date = fromDay(text, today);
    if (unitPrice !== null) {
      return {
        toolName: "prepare_business_change",
        args: { change: "price", process, unit_price: unitPrice, ...(date ? { date } : {}) },
      };
    }
  }
  const style = NEW_STYLE.exec(text);
  if (style) return { toolName: "prepare_business_change", args: { change: "style_add", code: style[1], name: style[2] } };
  const workshop = WORKSHOP_NAME.exec(text);
  if (workshop) return { toolName: "prepare_business_change", args: { change: "workshop", name: workshop[1] } };
  const added = NEW_PROCESS.exec(`${text}。`);
  const addedPrice = added ? PRICE_GIVEN.exec(text.slice((added.index ?? 0) + added[0].length - 1)) : null;
  if (added && addedPrice) {
    const unitPrice = priceOf(addedPrice);
    if (unitPrice !== null) {
      return {
        toolName: "prepare_business_change",
        args: { change: "process_add", style: added[1], name: added[2], unit_price: unitPrice },
      };
    }
  }
  const toggled = PROCESS_TOGGLE.exec(text);
  if (toggled) {
    const named = process ?? TOGGLED_PROCESS.map((pattern) => pattern.exec(text)?.[1]).find(Boolean) ?? null;
    if (named !== null) {
      const change = toggled[0] === "停用" ? "process_disable" : "process_enable";
      return { toolName: "prepare_business_change", args: { change, process: named } };
    }
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
