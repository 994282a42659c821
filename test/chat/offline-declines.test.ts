import type { LanguageModelV4CallOptions, LanguageModelV4FunctionTool } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { offlineModel } from "../../src/chat/offline/offline-model.ts";
import { passagesBlock } from "../../src/chat/passages.ts";

// Every business tool the offline model could pick, offered as a boss's chat offers them.
const TOOLS: LanguageModelV4FunctionTool[] = [
  "query_orders",
  "query_piece_records",
  "query_payroll",
  "query_processes",
  "prepare_order",
  "prepare_piece_record",
].map((name) => ({ type: "function", name, inputSchema: { type: "object", properties: {} } }));

const GUIDE = passagesBlock([
  {
    title: "订单管理",
    heading: "修改订单",
    content:
      "待生产和生产中的订单可以修改数量、交货日期和备注。款号一旦有计件记录就不能再改，因为工序单价跟款式绑定；如果确实下错了款，请取消这张订单再新建一张。",
  },
]);

function ask(text: string, system = ""): LanguageModelV4CallOptions {
  return {
    prompt: [
      ...(system ? [{ role: "system" as const, content: system }] : []),
      { role: "user", content: [{ type: "text", text }] },
    ],
    tools: TOOLS,
  };
}

const model = offlineModel({ timeZone: "Asia/Shanghai", now: () => new Date("2026-11-25T17:00:00Z") });

async function answer(text: string, system = ""): Promise<string> {
  const result = await model.doGenerate(ask(text, system));
  expect(result.content.some((part) => part.type === "tool-call")).toBe(false);
  return result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

describe("what the offline model says to a request no tool can do", () => {
  it("says plainly that it cannot change an order, where it is changed, and quotes the guide", async () => {
    const text = await answer("把订单2026-001的数量改成900", GUIDE);
    expect(text).toMatch(/^我不能修改已有的订单/);
    expect(text).toContain("请老板在“订单”页面修改");
    expect(text).toContain("待生产和生产中的订单可以修改数量、交货日期和备注。 [1]");
    expect(text).toContain("[1] 订单管理 › 修改订单");
  });

  it("declines a change to a due date in English too, and without passages", async () => {
    const text = await answer("Change the due date of order 2026-001 to December 30");
    expect(text).toMatch(/^I cannot change an existing order/);
  });

  it("declines changing a saved piece record or a unit price, pointing at the page that does it", async () => {
    expect(await answer("把张三昨天的计件改成50件")).toContain("“计件”页面");
    expect(await answer("把上领子的单价改成0.9元")).toContain("请老板在“工序”页面修改");
  });

  it("declines moving a due date or setting a price in other words, instead of looking the order or price up", async () => {
    expect(await answer("交期推迟一周", GUIDE)).toMatch(/^我不能修改已有的订单/);
    expect(await answer("把订单2026-003的交期往后推三天")).toMatch(/^我不能修改已有的订单/);
    expect(await answer("单价调到0.5")).toMatch(/^我不能修改工序单价/);
    expect(await answer("把上领子单价调成0.4元")).toContain("请老板在“工序”页面修改");
  });

  it("does not query a month to come as if it had pay or pieces, nor record work not done yet", async () => {
    expect(await answer("下个月的工资")).toBe(
      "下个月还没到，没有工资可查：工资按每个月登记的计件现算。可以问这个月（算到今天）或以前的月份，例如“这个月的工资”。",
    );
    expect(await answer("明天做了多少件")).toMatch(/^明天还没到，还没有计件记录。/);
    expect(await answer("给李娟记明天上领子200件")).toMatch(/^计件只能登记已经做完的：明天的活/);
    expect(await answer("next month's payroll")).toMatch(/^Next month has not come yet, so there is no pay to show/);
  });
});
