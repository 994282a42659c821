import type { LanguageModelV4FunctionTool, LanguageModelV4Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { findComparison } from "../../src/chat/offline/comparisons.ts";
import { offlineModel } from "../../src/chat/offline/offline-model.ts";

const TODAY = "2026-11-26";
const THIS_MONTH = { kind: "period", period: "this_month" } as const;
const LAST_MONTH = { kind: "period", period: "last_month" } as const;

// Request → what is compared, who, the period asked about and the one it is measured against.
const TABLE: [string, ReturnType<typeof findComparison>][] = [
  ["张三上个月比这个月多做了多少件", { measure: "pieces", employee: "张三", subject: LAST_MONTH, base: THIS_MONTH }],
  ["这个月比上个月多做了多少件", { measure: "pieces", employee: null, subject: THIS_MONTH, base: LAST_MONTH }],
  ["李娟这个月比上个月多挣了多少", { measure: "pay", employee: "李娟", subject: THIS_MONTH, base: LAST_MONTH }],
  ["我这个月工资比上个月少了多少", { measure: "pay", employee: null, subject: THIS_MONTH, base: LAST_MONTH }],
  ["跟上个月比，张三这个月多做了多少件", { measure: "pieces", employee: "张三", subject: THIS_MONTH, base: LAST_MONTH }],
  ["张三这个月和上个月比，件数差多少", { measure: "pieces", employee: "张三", subject: THIS_MONTH, base: LAST_MONTH }],
  ["张三比上个月多做了多少件", { measure: "pieces", employee: "张三", subject: THIS_MONTH, base: LAST_MONTH }],
  [
    "李娟这周比上周多做了几件",
    {
      measure: "pieces",
      employee: "李娟",
      subject: { kind: "period", period: "this_week" },
      base: { kind: "period", period: "last_week" },
    },
  ],
  [
    "张三今天比昨天少做多少件",
    {
      measure: "pieces",
      employee: "张三",
      subject: { kind: "period", period: "today" },
      base: { kind: "period", period: "yesterday" },
    },
  ],
  [
    "张三10月比9月多做了多少件",
    {
      measure: "pieces",
      employee: "张三",
      subject: { kind: "month", month: "2026-10" },
      base: { kind: "month", month: "2026-09" },
    },
  ],
  [
    "how many more pieces did I do this month than last month",
    { measure: "pieces", employee: null, subject: THIS_MONTH, base: LAST_MONTH },
  ],
  // Not comparisons: one period, or nothing measured.
  ["张三这个月做了多少件", null],
  ["张三上个月的工资", null],
  ["这个月比上个月忙吗", null],
  ["上领子比下摆贵多少", null],
];

describe("reading a comparison of two periods", () => {
  it.each(TABLE)("%s", (text, expected) => {
    expect(findComparison(text, TODAY)).toEqual(expected);
  });
});

function tool(name: string, properties: string[]): LanguageModelV4FunctionTool {
  return {
    type: "function",
    name,
    inputSchema: { type: "object", properties: Object.fromEntries(properties.map((p) => [p, { type: "string" }])) },
  };
}

const TOOLS = [
  tool("query_piece_records", ["employee", "period", "month", "date_from", "date_to", "group_by"]),
  tool("query_payroll", ["employee", "month"]),
];

// The conversation so far: the question, then each call the model made with what it returned.
function prompt(text: string, answered: { toolName: string; input: unknown; output: unknown; error?: true }[]) {
  const messages: LanguageModelV4Prompt = [{ role: "user", content: [{ type: "text", text }] }];
  answered.forEach(({ toolName, input, output, error }, i) => {
    const toolCallId = `c${i}`;
    messages.push({ role: "assistant", content: [{ type: "tool-call", toolCallId, toolName, input }] });
    messages.push({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId,
          toolName,
          output: error ? { type: "error-text", value: String(output) } : { type: "json", value: output as never },
        },
      ],
    });
  });
  return { prompt: messages, tools: TOOLS };
}

const money = (cents: number) => ({ cents, yuan: (cents / 100).toFixed(2) });
const pieces = (from: string, to: string, count: number, cents: number) => ({
  records: [],
  totals: { records: 3, pieces: count, amount: money(cents) },
  period: { name: "dates", of: "work_date", from, to, in_progress: from <= TODAY && TODAY <= to },
  scope: "workshop",
  next_cursor: null,
  today: TODAY,
  time_zone: "Asia/Shanghai",
});

describe("the offline model comparing two periods", () => {
  const model = offlineModel({ timeZone: "Asia/Shanghai", now: () => new Date("2026-11-26T04:00:00Z") });
  const step = async (text: string, answered: Parameters<typeof prompt>[1]) =>
    (await model.doGenerate(prompt(text, answered))).content[0];
  const QUESTION = "张三上个月比这个月多做了多少件";
  const lastMonth = { toolName: "query_piece_records", input: { employee: "张三", period: "last_month" } };
  const thisMonth = { toolName: "query_piece_records", input: { employee: "张三", period: "this_month" } };

  it("asks for the period asked about, then the one it is measured against, then answers both with the difference", async () => {
    expect(await step(QUESTION, [])).toMatchObject({ type: "tool-call", ...lastMonth, input: JSON.stringify(lastMonth.input) });
    const first = { ...lastMonth, output: pieces("2026-10-01", "2026-10-31", 3200, 198000) };
    expect(await step(QUESTION, [first])).toMatchObject({
      type: "tool-call",
      ...thisMonth,
      input: JSON.stringify(thisMonth.input),
    });
    const second = { ...thisMonth, output: pieces("2026-11-01", "2026-11-30", 2752, 169160) };
    expect(await step(QUESTION, [first, second])).toEqual({
      type: "text",
      text: [
        "张三上个月做了 3,200 件，本月做了 2,752 件：上个月比本月多做 448 件。",
        "",
        "| 时段 | 日期 | 件数 | 金额 |",
        "| --- | --- | ---: | ---: |",
        "| 上个月 | 2026-10-01 至 2026-10-31 | 3,200 | ¥1,980.00 |",
        "| 本月 | 2026-11-01 至 2026-11-30 | 2,752 | ¥1,691.60 |",
        "| **相差** |  | +448 | +¥288.40 |",
      ].join("\n"),
    });
  });

  it("says fewer when the period asked about has fewer", async () => {
    const first = { ...thisMonth, output: pieces("2026-11-01", "2026-11-30", 100, 5000) };
    const second = { ...lastMonth, output: pieces("2026-10-01", "2026-10-31", 160, 8000) };
    const reply = await step("张三这个月比上个月多做了多少件", [first, second]);
    expect(reply).toMatchObject({
      type: "text",
      text: expect.stringMatching(/^张三本月做了 100 件，上个月做了 160 件：本月比上个月少做 60 件。/),
    });
    expect((reply as { text: string }).text).toContain("| **相差** |  | -60 | -¥30.00 |");
  });

  it("compares two months' payslips for pay, with net pay in the sentence", async () => {
    const question = "李娟这个月比上个月多挣了多少";
    const payroll = (month: string, net: number) => ({
      month,
      payslips: [{ employee: { id: "e2", name: "李娟", employee_no: "A02" } }],
      totals: {
        employees: 1,
        pieces: net / 50,
        piece_wage: money(net),
        allowances: money(0),
        deductions: money(0),
        net_pay: money(net),
      },
      scope: "workshop",
      next_cursor: null,
      today: TODAY,
      time_zone: "Asia/Shanghai",
    });
    expect(await step(question, [])).toMatchObject({
      toolName: "query_payroll",
      input: JSON.stringify({ employee: "李娟", month: "2026-11" }),
    });
    const first = {
      toolName: "query_payroll",
      input: { employee: "李娟", month: "2026-11" },
      output: payroll("2026-11", 150000),
    };
    expect(await step(question, [first])).toMatchObject({
      toolName: "query_payroll",
      input: JSON.stringify({ employee: "李娟", month: "2026-10" }),
    });
    const second = {
      toolName: "query_payroll",
      input: { employee: "李娟", month: "2026-10" },
      output: payroll("2026-10", 120000),
    };
    const reply = (await step(question, [first, second])) as { text: string };
    expect(reply.text.split("\n")[0]).toBe(
      "李娟本月（2026-11）实发 ¥1,500.00，上个月（2026-10）实发 ¥1,200.00：本月比上个月多挣 ¥300.00。",
    );
    expect(reply.text).toContain("| 月份 | 件数 | 计件工资 | 补贴 | 扣款 | 实发 |");
    expect(reply.text).toContain("| **相差** | +600 | +¥300.00 | ¥0.00 | ¥0.00 | +¥300.00 |");
  });

  it("says a refused first call in words and makes no second", async () => {
    const refused = {
      ...lastMonth,
      output: "forbidden: Staff can see only their own records",
      error: true as const,
    };
    const reply = (await step(QUESTION, [refused])) as { type: string; text: string };
    expect(reply.type).toBe("text");
    expect(reply.text).not.toMatch(/forbidden|Staff/);
  });

  it("declines a period still to come", async () => {
    const reply = (await step("张三下个月比这个月多做多少件", [])) as { type: string; text: string };
    expect(reply).toMatchObject({ type: "text", text: expect.stringContaining("下个月还没到") });
  });
});
