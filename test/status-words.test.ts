import { describe, expect, it } from "vitest";
import { ORDER_STATUS_LABELS, ORDER_STATUSES } from "../src/business/orders.ts";
import { ACTION_STATUS_WORDS, decidedLine, ORDER_STATUS_WORDS, statusWord } from "../src/status-words.ts";

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
