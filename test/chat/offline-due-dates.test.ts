import { describe, expect, it } from "vitest";
import { dueHeading, dueRange } from "../../src/chat/offline/due-dates.ts";
import { chooseTool, type ToolChoice } from "../../src/chat/offline/intents.ts";
import { offlineModel } from "../../src/chat/offline/offline-model.ts";
import { placedHeading } from "../../src/chat/offline/placed-dates.ts";
import { toolReply } from "../../src/chat/offline/tool-replies.ts";

const TODAY = "2026-11-26";
const ORDER = { order_no: "2026-004", customer: "海澜", due_date: "2026-12-02", status: "pending", status_label: "待生产" };

describe("due dates the offline model asks query_orders for", () => {
  it("counts weeks from Monday, as the business tools do, and months to their last day", () => {
    expect(dueRange({ kind: "period", period: "next_week" }, "2026-11-29")).toEqual({ from: "2026-11-30", to: "2026-12-06" });
    expect(dueRange({ kind: "period", period: "next_month" }, "2026-12-31")).toEqual({ from: "2027-01-01", to: "2027-01-31" });
    expect(dueRange({ kind: "period", period: "tomorrow" }, "2026-02-28")).toEqual({ from: "2026-03-01", to: "2026-03-01" });
    expect(dueRange({ kind: "day", date: "2026-11-24" }, TODAY)).toEqual({ from: "2026-11-24", to: "2026-11-24" });
  });

  it("names the period and its dates, and says when nothing is due in it", () => {
    const week = { from: "2026-11-30", to: "2026-12-06" };
    expect(dueHeading(week, TODAY, { chinese: true, found: true, filtered: false })).toBe(
      "下周（2026-11-30 至 2026-12-06）到期的订单：",
    );
    expect(dueHeading(week, TODAY, { chinese: true, found: false, filtered: false })).toBe(
      "下周（2026-11-30 至 2026-12-06）没有到期的订单。",
    );
    expect(dueHeading(week, TODAY, { chinese: true, found: false, filtered: true })).toBe(
      "下周（2026-11-30 至 2026-12-06）到期的订单里没有符合条件的。",
    );
    expect(dueHeading({ from: "2027-03-01", to: "2027-03-31" }, TODAY, { chinese: false, found: true, filtered: false })).toBe(
      "Orders due from 2027-03-01 to 2027-03-31:",
    );
    expect(dueHeading({ from: "2026-11-27", to: "2026-11-27" }, TODAY, { chinese: false, found: false, filtered: false })).toBe(
      "No orders are due tomorrow (2026-11-27).",
    );
  });
});

describe("due dates read from what a boss types", () => {
  const args = (text: string, today = TODAY) => (chooseTool(text, today, null) as ToolChoice | null)?.args;

  it("keeps a year that is said with the month, in digits or as 今年/明年/去年", () => {
    expect(args("2026年3月到期的订单")).toEqual({ due_from: "2026-03-01", due_to: "2026-03-31" });
    expect(args("2026年12月要交的订单", "2027-01-10")).toEqual({ status: "open", due_from: "2026-12-01", due_to: "2026-12-31" });
    expect(args("明年3月要交的订单")).toEqual({ status: "open", due_from: "2027-03-01", due_to: "2027-03-31" });
    expect(args("去年12月的订单")).toEqual({ due_from: "2025-12-01", due_to: "2025-12-31" });
    expect(args("今年3月的订单")).toEqual({ due_from: "2026-03-01", due_to: "2026-03-31" });
    // Without a year, a month is still the next such month from this one on.
    expect(args("3月要交的订单")).toEqual({ status: "open", due_from: "2027-03-01", due_to: "2027-03-31" });
  });

  it("reads 上上周, 下下周, 上上个月 and 下下个月 as those, not as last or next week or month", () => {
    expect(args("下下周的订单")).toEqual({ due_from: "2026-12-07", due_to: "2026-12-13" });
    expect(args("上上周到期的订单")).toEqual({ due_from: "2026-11-09", due_to: "2026-11-15" });
    expect(args("下下个月要交的订单", "2026-12-15")).toEqual({ status: "open", due_from: "2027-02-01", due_to: "2027-02-28" });
    expect(args("上上个月到期的订单", "2026-01-20")).toEqual({ due_from: "2025-11-01", due_to: "2025-11-30" });
  });

  it("gives pay and piece records the same month or week", () => {
    expect(args("2025年12月的工资", "2026-11-26")).toEqual({ month: "2025-12" });
    expect(args("2026年12月的工资", "2027-01-10")).toEqual({ month: "2026-12" });
    expect(args("上上个月的工资", "2026-01-20")).toEqual({ month: "2025-11" });
    expect(args("上上周的计件")).toEqual({ date_from: "2026-11-09", date_to: "2026-11-15" });
  });
});

describe("the offline model's words for orders asked for by due date", () => {
  const reply = (input: unknown, output: unknown, chinese = true) =>
    toolReply({ toolName: "query_orders", input, output, isError: false, question: "", chinese });

  it("leads with the dates the orders are due in, so this month's orders are not read as created this month", () => {
    const output = { orders: [ORDER], totals: { orders: 1, quantity: 800 }, next_cursor: null, today: TODAY };
    const text = reply({ due_from: "2026-11-01", due_to: "2026-11-30" }, output);
    expect(text).toMatch(/^本月（2026-11-01 至 2026-11-30）到期的订单：\n\n订单（1）：\n\n\| 订单号 \|.*\n.*\n\| 2026-004 \|/);
    expect(reply({ due_from: "2026-11-30", due_to: "2026-12-06" }, output, false)).toMatch(
      /^Orders due next week \(2026-11-30 to 2026-12-06\):\n\norders \(1\):/,
    );
    // Without due dates the list is as before.
    expect(reply({ status: "pending" }, output)).toMatch(/^订单（1）：/);
  });

  it("says that nothing is due rather than that nothing matched", () => {
    const none = { orders: [], totals: { orders: 0, quantity: 0 }, next_cursor: null, today: TODAY };
    expect(reply({ due_from: "2026-11-27", due_to: "2026-11-27" }, none)).toBe("明天（2026-11-27）没有到期的订单。");
    expect(reply({ status: "completed", due_from: "2026-11-23", due_to: "2026-11-29" }, none)).toBe(
      "本周（2026-11-23 至 2026-11-29）到期的订单里没有符合条件的。",
    );
  });

  it("takes the dates from the call it made, in the turn it answers", async () => {
    const model = offlineModel({ timeZone: "Asia/Shanghai", now: () => new Date("2026-11-25T17:00:00Z") });
    const input = { due_from: "2026-11-30", due_to: "2026-12-06" };
    const result = await model.doGenerate({
      prompt: [
        { role: "user", content: [{ type: "text", text: "下周到期的订单" }] },
        { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "query_orders", input }] },
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "c1",
              toolName: "query_orders",
              output: {
                type: "json",
                value: { orders: [ORDER], totals: { orders: 1, quantity: 800 }, next_cursor: null, today: TODAY },
              },
            },
          ],
        },
      ],
    });
    expect(result.content).toEqual([
      { type: "text", text: expect.stringMatching(/^下周（2026-11-30 至 2026-12-06）到期的订单：\n\n订单（1）：/) },
    ]);
  });
});

describe("orders asked for by the day they were placed", () => {
  const choice = (text: string, today = TODAY) => chooseTool(text, today, null) as ToolChoice | null;
  const args = (text: string, today = TODAY) => choice(text, today)?.args;

  it("filters words about placing or creating orders by creation day, not due date", () => {
    expect(args("本月新增的订单")).toEqual({ created_from: "2026-11-01", created_to: "2026-11-30" });
    expect(args("这周新下的订单")).toEqual({ created_from: "2026-11-23", created_to: "2026-11-29" });
    expect(args("今天新建的订单有哪些")).toEqual({ created_from: "2026-11-26", created_to: "2026-11-26" });
    expect(args("这个月下了多少订单")).toEqual({ created_from: "2026-11-01", created_to: "2026-11-30" });
    expect(args("上周接了几个单子")).toEqual({ created_from: "2026-11-16", created_to: "2026-11-22" });
    expect(args("上个月下的订单")).toEqual({ created_from: "2026-10-01", created_to: "2026-10-31" });
    expect(args("今天有新的订单吗")).toEqual({ created_from: "2026-11-26", created_to: "2026-11-26" });
    expect(args("这周接了几单")).toEqual({ created_from: "2026-11-23", created_to: "2026-11-29" });
    expect(args("orders placed this week")).toEqual({ created_from: "2026-11-23", created_to: "2026-11-29" });
    expect(args("new orders this month")).toEqual({ created_from: "2026-11-01", created_to: "2026-11-30" });
    expect(args("orders created yesterday")).toEqual({ created_from: "2026-11-25", created_to: "2026-11-25" });
    // A month said without its year is the last such month: orders are placed in the past.
    expect(args("三月新建的订单")).toEqual({ created_from: "2026-03-01", created_to: "2026-03-31" });
    // With a status too, and a look-up rather than a new order even without 的.
    expect(choice("本月新增订单")?.toolName).toBe("query_orders");
    expect(args("本月新增的已完成订单")).toEqual({ status: "completed", created_from: "2026-11-01", created_to: "2026-11-30" });
  });

  it("keeps due words on due dates, and an order to be created on prepare_order", () => {
    expect(args("本月到期的订单")).toEqual({ due_from: "2026-11-01", due_to: "2026-11-30" });
    expect(args("这周要交的新订单")).toEqual({ status: "open", due_from: "2026-11-23", due_to: "2026-11-29" });
    expect(args("orders due this week")).toEqual({ due_from: "2026-11-23", due_to: "2026-11-29" });
    expect(args("这个月剩下的订单")).toEqual({ due_from: "2026-11-01", due_to: "2026-11-30" });
    expect(choice("今天新建一个订单")?.toolName).toBe("prepare_order");
    expect(choice("新建订单 客户是锦绣 款式T恤 300件 交期2027-01-15")?.toolName).toBe("prepare_order");
    expect(choice("create a new order for 海澜 today")?.toolName).toBe("prepare_order");
  });

  it("says in the heading that the orders were placed then, with the days", () => {
    const month = { from: "2026-11-01", to: "2026-11-30" };
    expect(placedHeading(month, TODAY, { chinese: true, found: true, filtered: false })).toBe(
      "本月新增的订单（2026-11-01 至 2026-11-30）：",
    );
    expect(placedHeading(month, TODAY, { chinese: true, found: false, filtered: false })).toBe(
      "本月（2026-11-01 至 2026-11-30）没有新增的订单。",
    );
    expect(placedHeading(month, TODAY, { chinese: true, found: false, filtered: true })).toBe(
      "本月新增的订单（2026-11-01 至 2026-11-30）里没有符合条件的。",
    );
    expect(placedHeading({ from: "2026-03-01", to: "2026-03-31" }, TODAY, { chinese: true, found: true, filtered: false })).toBe(
      "2026-03-01 至 2026-03-31 新增的订单：",
    );
    expect(placedHeading({ from: "2026-11-23", to: "2026-11-29" }, TODAY, { chinese: false, found: true, filtered: false })).toBe(
      "Orders placed this week (2026-11-23 to 2026-11-29):",
    );
    expect(
      placedHeading({ from: "2026-11-24", to: "2026-11-24" }, TODAY, { chinese: false, found: false, filtered: false }),
    ).toBe("No orders were placed on 2026-11-24.");
  });

  it("answers a creation-day look-up under that heading, not the due-date one", () => {
    const output = { orders: [ORDER], totals: { orders: 1, quantity: 800 }, next_cursor: null, today: TODAY };
    const reply = (input: unknown, out: unknown = output) =>
      toolReply({ toolName: "query_orders", input, output: out, isError: false, question: "", chinese: true });
    expect(reply({ created_from: "2026-11-01", created_to: "2026-11-30" })).toMatch(
      /^本月新增的订单（2026-11-01 至 2026-11-30）：\n\n订单（1）：\n\n\| 订单号 \|.*\n.*\n\| 2026-004 \|/,
    );
    const none = { ...output, orders: [], totals: { orders: 0, quantity: 0 } };
    expect(reply({ created_from: "2026-11-23", created_to: "2026-11-29" }, none)).toBe(
      "本周（2026-11-23 至 2026-11-29）没有新增的订单。",
    );
  });
});
