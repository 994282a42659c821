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

// A boss is also offered the tool that changes the workshop's own data (issue 43); staff are not.
const BOSS_TOOLS: LanguageModelV4FunctionTool[] = [
  ...TOOLS,
  { type: "function", name: "prepare_business_change", inputSchema: { type: "object", properties: {} } },
];

function ask(text: string, system = ""): LanguageModelV4CallOptions {
  return {
    prompt: [
      ...(system ? [{ role: "system" as const, content: system }] : []),
      { role: "user", content: [{ type: "text", text }] },
    ],
    tools: system.includes("role: boss") ? BOSS_TOOLS : TOOLS,
  };
}

const BOSS = "You are talking with 王老板 (role: boss).";

const model = offlineModel({ timeZone: "Asia/Shanghai", now: () => new Date("2026-11-25T17:00:00Z") });

async function answer(text: string, system = ""): Promise<string> {
  const result = await model.doGenerate(ask(text, system));
  expect(result.content.some((part) => part.type === "tool-call")).toBe(false);
  return result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

describe("what the offline model says to a request no tool can do", () => {
  it("tells staff in one sentence that the boss changes an order in the chat, without the guide's passages", async () => {
    const text = await answer("把订单2026-001的数量改成900", `You are talking with 李娟 (role: staff).\n${GUIDE}`);
    expect(text).toBe("你的角色不能修改已有的订单，请老板在对话里改。");
    expect(text).not.toContain("[1]");
  });

  it("tells staff so in English too", async () => {
    const text = await answer("Change the due date of order 2026-001 to December 30", "You are talking with 李娟 (role: staff).");
    expect(text).toBe("Your role cannot change existing orders; the boss can, in the chat.");
  });

  it("tells a boss how to say a change the chat makes when the words were not read as one", async () => {
    expect(await answer("交期推迟一周", `${BOSS}\n${GUIDE}`)).toBe(
      "可以在对话里修改已有的订单，例如说“把订单2026-001的数量改成900”“2026-001 推迟到12月20日交货”“2026-001 做完了”。",
    );
    expect(await answer("单价调到0.5", BOSS)).toBe("可以在对话里修改工序单价，例如说“上领子改成九毛，从下个月一号起”。");
  });

  it("refuses staff a unit price or an allowance, saying the boss can, and refuses what nothing changes", async () => {
    expect(await answer("把张三昨天的计件改成50件")).toMatch(/^Weft 不能修改已登记的计件/);
    expect(await answer("把上领子的单价改成0.9元")).toBe("你的角色不能修改工序单价，请老板在对话里改。");
    expect(await answer("给张三加200块全勤奖")).toBe("你的角色不能修改补贴和扣款，请老板在对话里改。");
    expect(await answer("删除订单2026-005")).toBe("你的角色不能删除已有的订单，请老板在对话里改。");
    expect(await answer("删除订单2026-005", BOSS)).toMatch(/^Weft 不能删除已有的订单，但可以在对话里修改/);
    expect(await answer("把张三昨天的计件删掉", BOSS)).toMatch(/^Weft 不能删除已登记的计件/);
  });

  it("says pay is worked out, not kept, when asked to change it, and what a boss changes instead", async () => {
    expect(await answer("帮我把张三的工资改成10000", BOSS)).toBe(
      "Weft 不能直接修改工资（工资是按计件记录、补贴和扣款现算的，没有可以直接改的工资数），可以在对话里改补贴和扣款，例如说“给李娟这个月加50块全勤奖”“扣张敏20块”。",
    );
    expect(await answer("帮我把张三的工资改成10000", "You are talking with 李娟 (role: staff).")).toBe(
      "Weft 不能修改工资（工资是按计件记录、补贴和扣款现算的，没有可以直接改的工资数），对话里也没有这样的功能；要修改，请找老板。",
    );
  });

  it("points a request to change a password or an account at the settings page that does it", async () => {
    expect(await answer("帮我把李娟的密码改成123456", BOSS)).toBe(
      "对话里不能修改账号：你可以在“设置 → 人员”（自己的密码在“设置 → 密码”）里改。",
    );
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
