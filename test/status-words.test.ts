import { describe, expect, it } from "vitest";
import { ORDER_STATUS_LABELS, ORDER_STATUSES } from "../src/business/orders.ts";
import { ACTION_STATUS_WORDS, decidedLine, ORDER_STATUS_WORDS, orderStatusOfWords, statusWord } from "../src/status-words.ts";

describe("the status words the server and the browser share", () => {
  it("names every order status in both languages, the order labels among them", () => {
    expect(Object.keys(ORDER_STATUS_WORDS)).toEqual([...ORDER_STATUSES]);
    for (const status of ORDER_STATUSES) expect(ORDER_STATUS_LABELS[status]).toBe(ORDER_STATUS_WORDS[status].zh);
    expect(statusWord(ORDER_STATUS_WORDS, "in_production", "en")).toBe("in production");
  });

  it("names every action status, and leaves a code it does not know (or __proto__) as it is", () => {
    expect(statusWord(ACTION_STATUS_WORDS, "pending", "zh")).toBe("待确认");
    expect(statusWord(ACTION_STATUS_WORDS, "confirmed", "en")).toBe("confirmed");
    expect(statusWord(ACTION_STATUS_WORDS, "archived", "zh")).toBe("archived");
    expect(statusWord(ACTION_STATUS_WORDS, "__proto__", "zh")).toBe("__proto__");
  });

  it.each([
    ["哪些订单还没完成", "open"],
    ["没做完的订单", "open"],
    ["还没做完的单子", "open"],
    ["在做的订单", "open"],
    ["未完成的订单", "open"],
    ["which orders are not done yet", "open"],
    ["生产中的订单", "in_production"],
    ["待生产的订单", "pending"],
    ["还没开始做的", "pending"],
    ["已完成的订单", "completed"],
    ["做完了的订单", "completed"],
    ["取消的订单", "cancelled"],
    ["海澜的订单", null],
  ])("reads %s as the order statuses %s, for the tool's filter and the offline model alike", (words, status) => {
    expect(orderStatusOfWords(words)).toBe(status);
  });

  it("says what became of a decided card, with what a confirmed or failed write reported", () => {
    expect(decidedLine("confirmed", "已登记", "zh")).toBe("已确认：已登记。");
    expect(decidedLine("confirmed", "已登记。", "zh")).toBe("已确认：已登记。");
    expect(decidedLine("cancelled", "已取消", "zh")).toBe("已取消。");
    expect(decidedLine("expired", undefined, "zh")).toBe("已过期，没有写入。");
    expect(decidedLine("failed", "订单已完成", "en")).toBe("Not written: 订单已完成.");
    expect(decidedLine("cancelled", undefined, "en")).toBe("Cancelled.");
    expect(decidedLine("pending", undefined, "zh")).toBeNull();
    expect(decidedLine("constructor", undefined, "zh")).toBeNull();
  });
});
