import { describe, expect, it } from "vitest";
import { addMonths } from "../../src/business/local-time.ts";
import { chooseTool } from "../../src/chat/offline/intents.ts";

// The sentences for changing a workshop's own data, as the offline model reads them.

const TODAY = "2026-11-20";
const choose = (text: string) => chooseTool(text, TODAY, null);

describe("the offline model's business changes", () => {
  it.each([
    ["新来了一个员工叫王强，电话 13800138000", { change: "employee_add", name: "王强", phone: "13800138000" }],
    ["2026-001 做完了", { change: "order", order: "2026-001", status: "completed" }],
    ["把 2026-005 取消，客户不要了", { change: "order", order: "2026-005", status: "cancelled", reason: "客户不要了" }],
    [
      "给李娟这个月加 50 块全勤奖",
      { change: "adjustment_add", employee: "李娟", kind: "allowance", amount: 50, month: "2026-11", reason: "全勤奖" },
    ],
    ["扣张敏 20 块", { change: "adjustment_add", employee: "张敏", kind: "deduction", amount: 20, month: "2026-11" }],
    [
      "给张三上个月补 30 元夜班费",
      {
        change: "adjustment_add",
        employee: "张三",
        kind: "allowance",
        amount: 30,
        month: addMonths(TODAY, -1),
        reason: "夜班费",
      },
    ],
    ["上领子改成九毛，从下个月一号起", { change: "price", process: "上领子", unit_price: 0.9, date: "2026-12-01" }],
    ["把上领子的单价改成0.9元", { change: "price", process: "上领子", unit_price: 0.9 }],
    ["锁边的工价调到1块2，从12月1日起", { change: "price", process: "锁边", unit_price: 1.2, date: "2026-12-01" }],
    ["把订单2026-001的数量改成900", { change: "order", order: "2026-001", quantity: 900 }],
    ["2026-001 推迟到12月20日交货", { change: "order", order: "2026-001", due_date: "2026-12-20" }],
    ["把锁眼停用", { change: "process_disable", process: "锁眼" }],
    ["停用上领子这道工序", { change: "process_disable", process: "上领子" }],
    ["重新启用锁眼", { change: "process_enable", process: "锁眼" }],
    ["把钉扣工序启用", { change: "process_enable", process: "钉扣" }],
    ["A01加一道工序锁眼，单价5毛", { change: "process_add", style: "A01", name: "锁眼", unit_price: 0.5 }],
    ["给B02加一道钉珠工序，每件1块2", { change: "process_add", style: "B02", name: "钉珠", unit_price: 1.2 }],
    ["新加一个款式A03，童装衬衫", { change: "style_add", code: "A03", name: "童装衬衫" }],
    ["新增款式 C01 叫 女式风衣", { change: "style_add", code: "C01", name: "女式风衣" }],
    ["把车间名称改成锦绣服装厂", { change: "workshop", name: "锦绣服装厂" }],
  ])("reads %s", (text, args) => {
    expect(choose(text)).toEqual({ toolName: "prepare_business_change", args });
  });

  it("reads a process's price history as a lookup with the history", () => {
    expect(choose("上领子的改价记录")).toMatchObject({
      toolName: "query_processes",
      args: { name_contains: "上领子", with_history: true },
    });
    expect(choose("A01的单价历史")).toMatchObject({ toolName: "query_processes", args: { style: "A01", with_history: true } });
  });

  it("leaves questions about the same things to the lookups", () => {
    expect(choose("2026-001 做完了吗")).not.toMatchObject({ toolName: "prepare_business_change" });
    expect(choose("订单2026-001是否已完成")).not.toMatchObject({ toolName: "prepare_business_change" });
    expect(choose("锁眼停用了吗")).not.toMatchObject({ toolName: "prepare_business_change" });
    expect(choose("张三这个月做了多少件")).toMatchObject({ toolName: "query_piece_records" });
  });
});
