import type { FuturePeriod } from "./dates.ts";
import { periodWord } from "./due-dates.ts";

/**
 * A request the offline model answers in its own words because no tool does what it asks: a
 * change to a saved order, piece record or unit price (Weft's tools only read these, and prepare
 * new orders and piece records), or records of a period that has not come yet.
 */
export type Decline =
  | { decline: "change"; what: "order" | "piece_record" | "unit_price" }
  | { decline: "future"; what: "pieces" | "payroll" | "record"; period: FuturePeriod };

// Where each change is made instead, as the workshop guide (knowledge/docs/车间系统使用手册) says.
const CHANGE_ZH = {
  order:
    "我不能修改已有的订单：在对话里只能查询订单（老板还可以新建订单）。待生产和生产中的订单可以改数量、交货日期和备注，请老板在“订单”页面修改；款号下错了，要取消这张订单再新建一张。",
  piece_record:
    "我不能修改或删除已保存的计件：在对话里只能登记和查询。登记错了，当天可以在“计件”页面自己修改或删除；过了当天，请老板修改。",
  unit_price: "我不能修改工序单价：在对话里只能查询。请老板在“工序”页面修改；新单价只影响修改之后登记的计件。",
} as const;

const CHANGE_EN = {
  order:
    "I cannot change an existing order: in the chat I can only look orders up (and a boss can create new ones). The boss changes an open order's quantity, due date or note on the Orders page; a wrong style means cancelling the order and creating a new one.",
  piece_record:
    "I cannot change or delete a saved piece record: in the chat I can only record and look up. A mistake can be changed or deleted on the Pieces page the same day; after that, the boss changes it.",
  unit_price:
    "I cannot change a unit price: in the chat I can only look prices up. The boss changes it on the Processes page; a new price applies only to pieces recorded after the change.",
} as const;

function futureReply(what: "pieces" | "payroll" | "record", period: FuturePeriod, chinese: boolean): string {
  const when = periodWord(period, chinese);
  if (chinese) {
    if (what === "record") return `计件只能登记已经做完的：${when}的活做完后再登记（日期不能晚于今天）。`;
    if (what === "payroll") {
      return `${when}还没到，没有工资可查：工资按每个月登记的计件现算。可以问这个月（算到今天）或以前的月份，例如“这个月的工资”。`;
    }
    return `${when}还没到，还没有计件记录。可以问今天或以前的，例如“今天做了多少件”。`;
  }
  if (what === "record")
    return `Pieces are recorded once they are done: record ${when}'s work then (a work date cannot be after today).`;
  if (what === "payroll") {
    return `${when[0]?.toUpperCase()}${when.slice(1)} has not come yet, so there is no pay to show: pay is worked out from each month's piece records. Ask about this month (so far) or an earlier one, e.g. "payroll for this month".`;
  }
  return `${when[0]?.toUpperCase()}${when.slice(1)} has not come yet, so there are no piece records. Ask about today or earlier, e.g. "how many pieces today".`;
}

/** What the offline model says to a request it declines, in the user's language. */
export function declineReply(decline: Decline, chinese: boolean): string {
  if (decline.decline === "change") return (chinese ? CHANGE_ZH : CHANGE_EN)[decline.what];
  return futureReply(decline.what, decline.period, chinese);
}
