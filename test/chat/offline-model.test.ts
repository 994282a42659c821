import type { LanguageModelV4CallOptions, LanguageModelV4FunctionTool, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { closestPassage, extractiveAnswer } from "../../src/chat/offline/answers.ts";
import { findDate } from "../../src/chat/offline/dates.ts";
import type { Decline } from "../../src/chat/offline/declines.ts";
import { chooseTool, type ToolChoice } from "../../src/chat/offline/intents.ts";
import { parseNumber } from "../../src/chat/offline/numbers.ts";
import { offlineModel } from "../../src/chat/offline/offline-model.ts";
import { toolReply } from "../../src/chat/offline/tool-replies.ts";
import { passagesBlock } from "../../src/chat/passages.ts";

const TODAY = "2026-11-26";

// Request → the tool and the arguments the offline model must read from it. Arguments are listed
// under every name a tool may use for them; the model keeps those the offered tool declares.
const TABLE: [string, string | null, Record<string, unknown>][] = [
  ["李娟今天做了多少件", "query_piece_records", { employee: "李娟", employee_name: "李娟", period: "today" }],
  ["张敏昨天的计件记录", "query_piece_records", { employee: "张敏", employee_name: "张敏", period: "yesterday" }],
  ["这个月上领子做了多少件", "query_piece_records", { process: "上领子", process_name: "上领子", period: "this_month" }],
  ["张敏这个月的工资", "query_payroll", { employee: "张敏", employee_name: "张敏", month: "2026-11" }],
  ["三月的工资是多少", "query_payroll", { month: "2026-03" }],
  ["上个月大家的工资", "query_payroll", { month: "2026-10" }],
  [
    "给李娟记上领子200件",
    "prepare_piece_record",
    { employee: "李娟", employee_name: "李娟", process: "上领子", process_name: "上领子", quantity: 200 },
  ],
  [
    "李娟昨天锁边两百件，帮我录入",
    "prepare_piece_record",
    {
      employee: "李娟",
      employee_name: "李娟",
      process: "锁边",
      process_name: "锁边",
      quantity: 200,
      work_date: "2026-11-25",
      date: "2026-11-25",
    },
  ],
  [
    "给张三记今天上领子 12 件，订单 2026-001",
    "prepare_piece_record",
    {
      employee: "张三",
      employee_name: "张三",
      process: "上领子",
      process_name: "上领子",
      quantity: 12,
      order: "2026-001",
      order_no: "2026-001",
      work_date: "2026-11-26",
      date: "2026-11-26",
    },
  ],
  [
    "帮张三记上领子80件",
    "prepare_piece_record",
    { employee: "张三", employee_name: "张三", process: "上领子", process_name: "上领子", quantity: 80 },
  ],
  [
    "王芳今天钉扣一百二十件，登记一下",
    "prepare_piece_record",
    {
      employee: "王芳",
      employee_name: "王芳",
      process: "钉扣",
      process_name: "钉扣",
      quantity: 120,
      work_date: "2026-11-26",
      date: "2026-11-26",
    },
  ],
  [
    "记一下刘强今天褶裥60件",
    "prepare_piece_record",
    {
      employee: "刘强",
      employee_name: "刘强",
      process: "褶裥",
      process_name: "褶裥",
      quantity: 60,
      work_date: "2026-11-26",
      date: "2026-11-26",
    },
  ],
  ["生产中的订单有哪些", "query_orders", { status: "in_production" }],
  // Words for the orders still to do are the open statuses, read as the tool reads them (issue 38).
  ["哪些订单还没完成", "query_orders", { status: "open" }],
  ["没做完的订单有哪些", "query_orders", { status: "open" }],
  ["在做的订单", "query_orders", { status: "open" }],
  [
    "给华美服饰下一个订单，款号A-102，500件，12月20日交货",
    "prepare_order",
    { customer: "华美服饰", style: "A-102", quantity: 500, due_date: "2026-12-20" },
  ],
  [
    "新建订单 客户是锦绣 款式T恤 300件 交期2027-01-15",
    "prepare_order",
    { customer: "锦绣", style: "T恤", quantity: 300, due_date: "2027-01-15" },
  ],
  [
    "Create an order for customer Acme, style A-7, 120 pieces",
    "prepare_order",
    { customer: "Acme", style: "A-7", quantity: 120 },
  ],
  ["订单JX-2024-001到哪了", "query_orders", { order: "JX-2024-001", order_no: "JX-2024-001" }],
  // "一下" and "看下" soften a look; they do not place an order ("下订单").
  ["查一下订单", "query_orders", {}],
  ["帮我看一下订单", "query_orders", {}],
  ["看下订单", "query_orders", {}],
  ["上领子的单价是多少", "query_processes", { process: "上领子", name_contains: "上领子" }],
  ["车间有哪些员工", "query_employees", {}],
  ["员工张敏的工号", "query_employees", { name_contains: "张敏", employee: "张敏" }],
  ["衣服起皱怎么办", "initiate_session", { user_query: "衣服起皱怎么办" }],
  ["次品怎么办", "initiate_session", { user_query: "次品怎么办" }],
  // 怎么办 alone asks how to handle something: the passages answer it, not a menu of consultation topics.
  ["工资单确认后发现错了怎么办", null, {}],
  ["忘记密码怎么办", null, {}],
  ["搜索知识库：新建订单", "knowledge_search", { query: "新建订单" }],
  ["怎么新建订单？", null, {}],
  ["员工能看到别人的工资吗", null, {}],
  ["单价改了以前的工资会变吗", null, {}],
  ["可以帮我查一下张敏这个月的工资吗", "query_payroll", { employee: "张敏", employee_name: "张敏", month: "2026-11" }],
  // A yes-or-no question asking to be told, or naming an order, is about the records, not the rules.
  ["能告诉我张敏这个月的工资吗", "query_payroll", { employee: "张敏", employee_name: "张敏", month: "2026-11" }],
  ["订单2026-001是否已完成", "query_orders", { order: "2026-001", order_no: "2026-001" }],
  ["订单2026-001能按时交货吗", "query_orders", { order: "2026-001", order_no: "2026-001" }],
  ["李娟可以登记计件吗", null, {}],
  // A year range, a phone number or a date written without its second dash is no order number.
  ["2025-2026年的订单", "query_orders", {}],
  ["客户电话 0571-88886666 的订单有哪些", "query_orders", {}],
  ["手机 138-1234-5678 的客户有哪些订单", "query_orders", {}],
  ["2026-1126交货的订单", "query_orders", {}],
  ["订单2026-1042的进度", "query_orders", { order: "2026-1042", order_no: "2026-1042" }],
  [
    "How many pieces did Li Juan do yesterday?",
    "query_piece_records",
    { employee: "Li Juan", employee_name: "Li Juan", period: "yesterday" },
  ],
  ["Show payroll for March", "query_payroll", { month: "2026-03" }],
  [
    "What did Zhang Min earn last month? Show her wages",
    "query_payroll",
    { employee: "Zhang Min", employee_name: "Zhang Min", month: "2026-10" },
  ],
  [
    "Record 150 pieces of collar for Zhang Min",
    "prepare_piece_record",
    { employee: "Zhang Min", employee_name: "Zhang Min", process: "collar", process_name: "collar", quantity: 150 },
  ],
  ["Which orders are in production?", "query_orders", { status: "in_production" }],
  // Orders are listed by due date: a period names the days they are due in (weeks from Monday).
  ["这个月的订单", "query_orders", { due_from: "2026-11-01", due_to: "2026-11-30" }],
  ["本周要交的订单", "query_orders", { status: "open", due_from: "2026-11-23", due_to: "2026-11-29" }],
  ["下周到期的订单", "query_orders", { due_from: "2026-11-30", due_to: "2026-12-06" }],
  ["下个星期要交的订单", "query_orders", { status: "open", due_from: "2026-11-30", due_to: "2026-12-06" }],
  ["明天要交的订单", "query_orders", { status: "open", due_from: "2026-11-27", due_to: "2026-11-27" }],
  ["下个月到期的订单", "query_orders", { due_from: "2026-12-01", due_to: "2026-12-31" }],
  ["下月的订单", "query_orders", { due_from: "2026-12-01", due_to: "2026-12-31" }],
  ["上周到期的订单", "query_orders", { due_from: "2026-11-16", due_to: "2026-11-22" }],
  ["今天要交货的订单", "query_orders", { status: "open", due_from: "2026-11-26", due_to: "2026-11-26" }],
  // A month without its year is the next such month, as a due day without its year is.
  ["12月要交的订单", "query_orders", { status: "open", due_from: "2026-12-01", due_to: "2026-12-31" }],
  ["三月到期的订单", "query_orders", { due_from: "2027-03-01", due_to: "2027-03-31" }],
  ["本月到期的生产中的订单", "query_orders", { status: "in_production", due_from: "2026-11-01", due_to: "2026-11-30" }],
  ["订单2026-001今天的进度", "query_orders", { order: "2026-001", order_no: "2026-001" }],
  ["this month's orders", "query_orders", { due_from: "2026-11-01", due_to: "2026-11-30" }],
  ["orders due next week", "query_orders", { due_from: "2026-11-30", due_to: "2026-12-06" }],
  ["Which orders are due tomorrow?", "query_orders", { due_from: "2026-11-27", due_to: "2026-11-27" }],
  ["orders due next month", "query_orders", { due_from: "2026-12-01", due_to: "2026-12-31" }],
  // A lookup word inside another word (检查, 查货, 查看) is no request to look something up, nor is
  // the 会 of 会计 or 开会 a "will…?"; 报价 reports no pieces.
  ["质检时要检查哪些地方", null, {}],
  ["开会通知在哪里看", null, {}],
  ["老板会检查计件记录吗", null, {}],
  ["员工能查看别人的工资吗", null, {}],
  ["查货工序能登记计件吗", null, {}],
  ["这款500件报价多少合适", null, {}],
  ["会计李娟这个月的工资发了吗", "query_payroll", { employee: "李娟", employee_name: "李娟", month: "2026-11" }],
  ["张三开会那天有计件记录吗", "query_piece_records", { employee: "张三", employee_name: "张三" }],
  ["系统会计算补贴吗", null, {}],
  // Looking up is still looking up, with or without those words about.
  ["检查下订单", "query_orders", {}],
  ["查看下订单", "query_orders", {}],
  ["能查看一下张敏这个月的工资吗", "query_payroll", { employee: "张敏", employee_name: "张敏", month: "2026-11" }],
  // How a change is made, or whether it may be, is a question for the guide.
  ["怎么修改订单", null, {}],
  ["订单的交期能改吗", null, {}],
  ["List the processes and unit prices", "query_processes", {}],
  ["List employees", "query_employees", {}],
  ["I need to troubleshoot a garment defect", "initiate_session", { user_query: "I need to troubleshoot a garment defect" }],
  ["How do I create a new order?", null, {}],
];

// Changes the offline model reads whole: prepared, for a boss to confirm on the card.
const CHANGES: [string, Record<string, unknown>][] = [
  ["把订单2026-001的数量改成900", { change: "order", order: "2026-001", quantity: 900 }],
  ["把上领子的单价改成0.9元", { change: "price", process: "上领子", unit_price: 0.9 }],
  ["订单2026-002延期到12月20日", { change: "order", order: "2026-002", due_date: "2026-12-20" }],
  ["把上领子单价调成0.4元", { change: "price", process: "上领子", unit_price: 0.4 }],
];

// Requests the offline model cannot read into a change (which order? what figure?), or no tool
// does (a saved piece record): declined in its own words, which say how to ask or who can.
const DECLINES: [string, Decline][] = [
  ["改一下订单2026-002的交期", { decline: "change", what: "order" }],
  ["可以帮我把订单2026-001的交期改到12月30日吗", { decline: "change", what: "order" }],
  ["订单2026-003的备注修改一下", { decline: "change", what: "order" }],
  ["Change the due date of order 2026-001 to December 30", { decline: "change", what: "order" }],
  ["把张三昨天的计件改成50件", { decline: "change", what: "piece_record" }],
  ["李娟的计件记录改成80件", { decline: "change", what: "piece_record" }],
  // A due date moved or a price set to a new figure is a change too, however it is worded.
  ["交期推迟一周", { decline: "change", what: "order" }],
  ["把订单2026-003的交期往后推三天", { decline: "change", what: "order" }],
  ["把2026-001的交期推到下个月", { decline: "change", what: "order" }],
  ["Postpone order 2026-001 by a week", { decline: "change", what: "order" }],
  ["单价调到0.5", { decline: "change", what: "unit_price" }],
  ["锁边的工价调高一点", { decline: "change", what: "unit_price" }],
  // No records or pay exist yet for a period to come; a write for one is refused before it is prepared.
  ["下个月的工资", { decline: "future", what: "payroll", period: "next_month" }],
  ["next month's payroll", { decline: "future", what: "payroll", period: "next_month" }],
  ["明天做了多少件", { decline: "future", what: "pieces", period: "tomorrow" }],
  ["下周李娟做了多少件", { decline: "future", what: "pieces", period: "next_week" }],
  ["给李娟记明天上领子200件", { decline: "future", what: "record", period: "tomorrow" }],
];

function toolOf(choice: ReturnType<typeof chooseTool>): ToolChoice | null {
  return choice && "toolName" in choice ? choice : null;
}

describe("the offline model's reading of requests", () => {
  it.each(TABLE)("%s → %s", (text, toolName, args) => {
    const choice = chooseTool(text, TODAY, null);
    expect(toolOf(choice)?.toolName ?? null).toBe(toolName);
    if (toolName) expect(toolOf(choice)?.args).toEqual(args);
  });

  it.each(CHANGES)("prepares %s", (text, args) => {
    expect(chooseTool(text, TODAY, null)).toEqual({ toolName: "prepare_business_change", args });
  });

  it.each(DECLINES)("declines %s", (text, decline) => {
    expect(chooseTool(text, TODAY, null)).toEqual(decline);
  });

  it("still reads a change told of, not asked for, as the question it is", () => {
    expect(chooseTool("单价改了以前的工资会变吗", TODAY, null)).toBeNull();
    expect(toolOf(chooseTool("老板修改了单价，我这个月的工资是多少", TODAY, null))?.toolName).toBe("query_payroll");
  });

  it("reads a question whether something was changed as a question, not as a change asked for", () => {
    expect(toolOf(chooseTool("这个月工价有没有调整", TODAY, null))?.toolName).toBe("query_processes");
    expect(toolOf(chooseTool("上领子的单价有没有被改", TODAY, null))?.toolName).toBe("query_processes");
    expect(toolOf(chooseTool("订单2026-001的交期是否更改", TODAY, null))?.toolName).toBe("query_orders");
    expect(toolOf(chooseTool("工序单价调整没有", TODAY, null))?.toolName).toBe("query_processes");
    expect(toolOf(chooseTool("查一下订单的修改记录", TODAY, null))?.toolName).toBe("query_orders");
  });

  it("reads a question whether a due date was moved or a price set as a question, not as a change asked for", () => {
    expect(chooseTool("有没有推迟", TODAY, null)).toBeNull();
    expect(toolOf(chooseTool("交期推迟了吗", TODAY, null))?.toolName).toBe("query_orders");
    expect(toolOf(chooseTool("订单2026-001是否推迟", TODAY, null))?.toolName).toBe("query_orders");
    expect(toolOf(chooseTool("延期的订单有哪些", TODAY, null))?.toolName).toBe("query_orders");
    expect(toolOf(chooseTool("单价调了吗", TODAY, null))?.toolName).toBe("query_processes");
    expect(toolOf(chooseTool("上领子的单价调高了没有", TODAY, null))?.toolName).toBe("query_processes");
    expect(chooseTool("怎么调整单价", TODAY, null)).toBeNull();
    expect(chooseTool("交期可以推迟吗", TODAY, null)).toBeNull();
  });

  it("declines deleting a saved order or piece record, which no tool does, rather than listing it", () => {
    expect(chooseTool("删除订单2026-001", TODAY, null)).toEqual({ decline: "change", what: "order" });
    expect(chooseTool("把我昨天的计件删了", TODAY, null)).toEqual({ decline: "change", what: "piece_record" });
    expect(chooseTool("帮我删掉李娟今天的计件记录", TODAY, null)).toEqual({ decline: "change", what: "piece_record" });
    // Deleted ones asked after, or how to delete, are not requests to delete.
    expect(toolOf(chooseTool("订单2026-001删了吗", TODAY, null))?.toolName).toBe("query_orders");
    expect(toolOf(chooseTool("删除的订单在哪里看", TODAY, null))?.toolName).toBe("query_orders");
    expect(chooseTool("delete order 2026-001", TODAY, null)).toEqual({ decline: "change", what: "order" });
    expect(chooseTool("怎么删除计件", TODAY, null)).toBeNull();
  });

  it("reads what is to be delivered in a period to come as orders due then, not as piece records", () => {
    expect(toolOf(chooseTool("明天要交多少件", TODAY, null))).toEqual({
      toolName: "query_orders",
      args: { status: "open", due_from: "2026-11-27", due_to: "2026-11-27" },
    });
    expect(toolOf(chooseTool("下周要交货的有哪些", TODAY, null))?.args).toEqual({
      status: "open",
      due_from: "2026-11-30",
      due_to: "2026-12-06",
    });
    expect(toolOf(chooseTool("下个月出货多少件", TODAY, null))?.args).toEqual({ due_from: "2026-12-01", due_to: "2026-12-31" });
    // Pieces of a period to come are still explained, not looked up.
    expect(chooseTool("明天做了多少件", TODAY, null)).toEqual({ decline: "future", what: "pieces", period: "tomorrow" });
  });

  it("picks the option a user chose in an open consultation, by its description", () => {
    const consultation = { sessionId: "s-1", options: [{ id: "wrinkle", description: "面料起皱" }] };
    expect(chooseTool("面料起皱", TODAY, consultation)).toEqual({
      toolName: "navigate_session",
      args: { session_id: "s-1", selected_option_id: "wrinkle" },
    });
    const two = { sessionId: "s-1", options: [...consultation.options, { id: "end", description: "结束咨询" }] };
    expect(toolOf(chooseTool("2", TODAY, two))?.args).toEqual({ session_id: "s-1", selected_option_id: "end" });
    expect(toolOf(chooseTool("2", TODAY, null))?.toolName).not.toBe("navigate_session");
    expect(toolOf(chooseTool("3", TODAY, two))?.toolName).not.toBe("navigate_session");
  });

  it("reads Chinese numerals and dates in the workshop's calendar", () => {
    expect([parseNumber("两百"), parseNumber("一千二百五十"), parseNumber("十五"), parseNumber("3万")]).toEqual([
      200,
      1250,
      15,
      null,
    ]);
    expect(findDate("三月", "2026-02-10")).toEqual({ kind: "month", month: "2025-03" });
    expect(findDate("前天", "2026-03-01")).toEqual({ kind: "day", date: "2026-02-27" });
    expect(findDate("12月", TODAY)).toEqual({ kind: "month", month: "2025-12" });
    expect(findDate("明天", TODAY)).toEqual({ kind: "period", period: "tomorrow" });
    expect(findDate("下个星期", TODAY)).toEqual({ kind: "period", period: "next_week" });
    expect(findDate("next month", TODAY)).toEqual({ kind: "period", period: "next_month" });
  });
});

function functionTool(name: string, properties: string[]): LanguageModelV4FunctionTool {
  return {
    type: "function",
    name,
    inputSchema: { type: "object", properties: Object.fromEntries(properties.map((p) => [p, { type: "string" }])) },
  };
}

function options(text: string, tools: LanguageModelV4FunctionTool[], system = ""): LanguageModelV4CallOptions {
  return {
    prompt: [
      ...(system ? [{ role: "system" as const, content: system }] : []),
      { role: "user", content: [{ type: "text", text }] },
    ],
    tools,
  };
}

async function parts(stream: ReadableStream<LanguageModelV4StreamPart>): Promise<LanguageModelV4StreamPart[]> {
  const out: LanguageModelV4StreamPart[] = [];
  for await (const part of stream) out.push(part);
  return out;
}

describe("the offline LanguageModelV4", () => {
  // 2026-11-25 17:00 UTC is already the 26th in Shanghai.
  const model = offlineModel({ timeZone: "Asia/Shanghai", now: () => new Date("2026-11-25T17:00:00Z") });

  it("streams a tool call with only the arguments the offered tool declares", async () => {
    const { stream } = await model.doStream(
      options("李娟今天做了多少件", [functionTool("query_piece_records", ["employee_name", "period"])]),
    );
    const call = (await parts(stream)).find((p) => p.type === "tool-call");
    expect(call).toMatchObject({ toolName: "query_piece_records" });
    expect(JSON.parse((call as { input: string }).input)).toEqual({ employee_name: "李娟", period: "today" });
  });

  it("resolves 今天 in the workshop's time zone, not UTC's", async () => {
    const { stream } = await model.doStream(
      options("李娟今天锁边30件，记一下", [functionTool("prepare_piece_record", ["employee", "quantity", "work_date"])]),
    );
    const call = (await parts(stream)).find((p) => p.type === "tool-call") as { input: string };
    expect(JSON.parse(call.input)).toEqual({ employee: "李娟", quantity: 30, work_date: "2026-11-26" });
  });

  it("never calls a tool it is not offered, and never confirm_action", async () => {
    const { stream } = await model.doStream(options("张敏这个月的工资", [functionTool("confirm_action", ["action_id"])]));
    const all = await parts(stream);
    expect(all.some((p) => p.type === "tool-call")).toBe(false);
    const text = all.flatMap((p) => (p.type === "text-delta" ? [p.delta] : [])).join("");
    expect(text).toContain("离线模型");
  });

  it("answers extractively from the passages in its instructions, citing title and heading, in several deltas", async () => {
    const system = passagesBlock([
      {
        title: "锦绣制衣系统使用手册",
        heading: "订单 › 新建订单",
        content: "新建订单时，先选择客户，再填写款式和数量。交期必须晚于今天。",
      },
      { title: "质量手册", heading: "熨烫", content: "熨烫温度按面料调整。" },
    ]);
    const { stream } = await model.doStream(options("怎么新建订单？", [], system));
    const all = await parts(stream);
    const deltas = all.filter((p) => p.type === "text-delta");
    expect(deltas.length).toBeGreaterThan(1);
    const text = deltas.map((p) => (p as { delta: string }).delta).join("");
    expect(text).toContain("新建订单时，先选择客户，再填写款式和数量。 [1]");
    expect(text).toContain("[1] 锦绣制衣系统使用手册 › 订单 › 新建订单");
    expect(text).not.toContain("熨烫温度");
    expect(all.at(-1)).toMatchObject({ type: "finish", finishReason: { unified: "stop" } });
  });

  it("points a typed confirmation at the card's button instead of confirming", async () => {
    const { stream } = await model.doStream(
      options("确认", [functionTool("confirm_action", ["action_id"]), functionTool("query_orders", [])]),
    );
    const all = await parts(stream);
    expect(all.some((p) => p.type === "tool-call")).toBe(false);
    expect(all.flatMap((p) => (p.type === "text-delta" ? [p.delta] : [])).join("")).toContain("确认卡片");
  });

  it("puts a tool's result into words after it has run", async () => {
    const result = await model.doGenerate({
      prompt: [
        { role: "user", content: [{ type: "text", text: "这个月的工资" }] },
        { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "query_payroll", input: {} }] },
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "c1",
              toolName: "query_payroll",
              output: {
                type: "json",
                value: {
                  summary: "全车间，本月（2026-11-01 至 11-30，进行中）：李娟 实发 1,200.00 元。",
                  period: { name: "this_month", from: "2026-11-01", to: "2026-11-30", in_progress: true },
                  filters: {},
                  assumptions: ["没有说月份，按本月计算"],
                  payslips: [
                    { employee: { id: "e1", name: "李娟", employee_no: "A01" }, net_pay: { cents: 120000, yuan: "1200.00" } },
                  ],
                  next_cursor: null,
                },
              },
            },
          ],
        },
      ],
    });
    // It leads with what the tool looked at (its summary), then the table in the tool's words.
    expect(result.content).toEqual([
      {
        type: "text",
        text: "全车间，本月（2026-11-01 至 11-30，进行中）：李娟 实发 1,200.00 元。\n\n工资单（1）：\n\n| 员工 | 实发 |\n| --- | ---: |\n| 李娟 | ¥1,200.00 |",
      },
    ]);
  });
});

describe("the offline model's extractive answers", () => {
  it("always quotes the best-ranked passage, even when a lower one shares more of the question's words", () => {
    const answer = extractiveAnswer("计件记录录错了怎么改", [
      { title: "计件登记错了怎么改", heading: "计件登记错了怎么改", content: "登记错了可以在当天修改或删除。" },
      {
        title: "工资",
        heading: "工资 > 工资单出错怎么办",
        content: "工资是按计件记录现算的，先查明细：常见原因是某条计件登记错了数量。改正计件记录后，再查一次工资。",
      },
    ]);
    expect(answer).toContain("登记错了可以在当天修改或删除。 [1]");
    expect(answer).toContain("- [1] 计件登记错了怎么改\n- [2] 工资 › 工资单出错怎么办");
  });
});

describe("the offline model's answer to an English question about a Chinese guide", () => {
  it("quotes the best-ranked passage and says the guide is in Chinese, rather than the fallback list", () => {
    const passages = [
      { title: "订单", heading: "新建订单", content: "在“订单”页面点击“新建订单”，填写客户、款式、数量和交货日期后保存。" },
    ];
    const answer = closestPassage("How do I create an order?", passages);
    expect(answer).toContain("The workshop's guide is written in Chinese");
    expect(answer).toContain("在“订单”页面点击“新建订单”");
    expect(answer).toContain("- [1] 订单 › 新建订单");
    expect(closestPassage("怎么新建订单", passages)).toBeNull();
    expect(closestPassage("How do I create an order?", [])).toBeNull();
  });
});

describe("the offline model's extractive answers, repeated text", () => {
  it("quotes a sentence two passages share once", () => {
    const answer = extractiveAnswer("订单进度怎么算", [
      { title: "订单进度不动", heading: "订单进度不动", content: "订单进度取最慢那道工序的完成比例。" },
      { title: "质量管理与常见问题", heading: "订单进度不动", content: "订单进度取最慢那道工序的完成比例。" },
    ]);
    expect(answer?.match(/订单进度取最慢那道工序的完成比例/g)).toHaveLength(1);
    expect(answer).not.toContain("[2]");
  });
});

describe("the offline model's words for a tool's result", () => {
  const reply = (output: unknown) =>
    toolReply({ toolName: "query_piece_records", output, isError: false, question: "", chinese: true });

  it("ends a list it shows only the start of with the totals over every row, as its last row", () => {
    const records = Array.from({ length: 20 }, (_, i) => ({ id: `r${i}`, quantity: i + 1, entered_by: "u-boss" }));
    const text = reply({ records, totals: { records: 23, pieces: 2673 }, next_cursor: "c" });
    expect(text).toMatch(/^计件记录（只列出前 10 条）：\n\n\| {3}\| 数量 \|\n\| --- \| ---: \|\n\| {2}\| 1 \|\n/);
    expect(text.split("\n").at(-1)).toBe("| **合计（全部 23 条）** | 2,673 |");
    expect(text).not.toContain("共 20 条");
    expect(text).not.toContain("u-boss");
  });

  it("says a refused tool call in Chinese words with what to do, and no agent-facing English", () => {
    const refused = (output: string, chinese = true) =>
      toolReply({ toolName: "prepare_piece_record", output, isError: true, question: "", chinese });
    expect(refused("forbidden: Staff can record pieces only for themselves. Leave out employee.")).toBe(
      "员工只能给自己登记计件：不用说名字，例如“我今天上领子80件，帮我登记”。",
    );
    expect(refused("forbidden: Staff can see only their own records. Leave out employee.")).toContain("员工只能查看自己的记录");
    expect(refused("unknown_name: No employee '王五' in this workshop. Close names: 王芳 (id e-3); 王强 (id e-4).")).toBe(
      "没有找到“王五”。请检查名字，或者说全一点。相近的有：王芳、王强。",
    );
    expect(refused("invalid_input: Say whose pieces these are: employee is required when a boss records pieces.")).toContain(
      "是谁做的？",
    );
    const invalid = refused(
      "invalid_input: Invalid arguments for prepare_piece_record: process: Invalid input: expected string, received undefined",
    );
    expect(invalid).toContain("是哪道工序？");
    expect(invalid).not.toMatch(/[A-Za-z]/);
    expect(refused("internal: something odd")).toBe("没能完成这件事。请换个说法再试一次，或者告诉老板。");
    expect(refused("forbidden: Only a boss can create orders.", false)).toBe("That did not work: Only a boss can create orders.");
  });

  // The chat shows the card with the tool call, above the reply (web/message-view.tsx renders parts in order).
  it("points to the confirm card above the reply, in either language", () => {
    const output = { status: "pending", action_id: "a".repeat(64), summary: "计件登记：张三 上领子 12 件", ambiguities: [] };
    const zh = toolReply({ toolName: "prepare_piece_record", output, isError: false, question: "", chinese: true });
    const en = toolReply({ toolName: "prepare_piece_record", output, isError: false, question: "", chinese: false });
    expect(zh).toContain("请在上面的确认卡片上点“确认”或“取消”");
    expect(en).toContain("on the card above");
  });

  it("asks a person, in Chinese, for each choice a prepared write still needs, with the candidates", () => {
    const output = {
      status: "pending",
      action_id: "a".repeat(64),
      summary: "计件登记：张三 上领子 12 件",
      ambiguities: [
        {
          field: "order",
          message: "Several open orders go through 上领子. Ask the user which order…",
          candidates: [
            { id: "o-1", label: "2026-001 优衣美" },
            { id: "o-6", label: "2026-006 海澜" },
          ],
        },
      ],
    };
    const text = toolReply({ toolName: "prepare_piece_record", output, isError: false, question: "", chinese: true });
    expect(text).toContain("- 记到哪张订单？可选：2026-001 优衣美；2026-006 海澜");
    expect(text).not.toContain("Several");
    expect(text).not.toContain("已准备好");
  });

  it("asks for a new order's open style as an order, not a piece record to add an order number to", () => {
    const output = {
      status: "pending",
      action_id: "a".repeat(64),
      summary: "新建订单：优衣美 衬衫 120 件，2026-12-20 交货",
      ambiguities: [
        {
          field: "style",
          message: "Several styles match '衬衫'. Ask the user which one…",
          candidates: [
            { id: "st-1", label: "A-101 女式衬衫" },
            { id: "st-2", label: "A-102 男式衬衫" },
          ],
        },
      ],
    };
    const text = toolReply({ toolName: "prepare_order", output, isError: false, question: "", chinese: true });
    expect(text).toContain("- 是哪个款式？可选：A-101 女式衬衫；A-102 男式衬衫");
    expect(text).not.toContain("登记");
    expect(text).not.toContain("订单号");
  });

  it("does not repeat a consultation step the chat shows under the tool call, only says what to do next", () => {
    const output = {
      session_id: "s1",
      response: "厚位跳针的处理：\n1. 换粗一号的针。\n2. 降低车速。",
      options: [
        { id: "solved", description: "问题解决了" },
        { id: "still", description: "还是跳针" },
      ],
      is_complete: false,
    };
    const text = toolReply({ toolName: "navigate_session", output, isError: false, question: "", chinese: true });
    expect(text).toBe("请在上面选一项，也可以回复选项的序号。");
    const done = toolReply({
      toolName: "navigate_session",
      output: { ...output, options: [], is_complete: true },
      isError: false,
      question: "",
      chinese: false,
    });
    expect(done).toBe("That ends this consultation. If the problem persists, describe it again.");
  });

  it("shows an order's progress as a percentage", () => {
    const output = { orders: [{ order_no: "2026-001", progress: { processes: [], percent: 51 } }], next_cursor: null };
    const text = toolReply({ toolName: "query_orders", output, isError: false, question: "", chinese: true });
    expect(text).toBe("订单（1）：\n\n| 订单号 | 进度 |\n| --- | ---: |\n| 2026-001 | 51% |");
  });

  it("says statuses and yes-or-no values in words, in the reply's language", () => {
    const output = {
      employees: [
        { name: "李娟", status: "active", has_login: true },
        { name: "赵六", status: "left" },
      ],
      next_cursor: null,
    };
    const zh = toolReply({ toolName: "query_employees", output, isError: false, question: "", chinese: true });
    expect(zh).toContain("| 李娟 | 在职 |");
    expect(zh).toContain("| 赵六 | 已离职 |");
    expect(zh).not.toMatch(/active|left/);
    const en = toolReply({ toolName: "query_employees", output, isError: false, question: "", chinese: false });
    expect(en).toContain("| 李娟 | active |");
  });

  it("says an order's status in the reply's language, once, from the words the browser shares", () => {
    const output = { orders: [{ order_no: "2026-001", status: "in_production" }], next_cursor: null };
    const zh = toolReply({ toolName: "query_orders", output, isError: false, question: "", chinese: true });
    expect(zh).toContain("| 2026-001 | 生产中 |");
    expect(zh.match(/生产中/g)).toHaveLength(1);
    expect(zh).not.toContain("in_production");
    const en = toolReply({ toolName: "query_orders", output, isError: false, question: "", chinese: false });
    expect(en).toContain("| 2026-001 | in production |");
    expect(en).not.toMatch(/生产中|in_production/);
  });

  it("heads an English table in English, a style by its code and name", () => {
    const output = { orders: [{ order_no: "2026-001", quantity: 300, style: { code: "A01", name: "衬衫" } }], next_cursor: null };
    const en = toolReply({ toolName: "query_orders", output, isError: false, question: "", chinese: false });
    expect(en).toBe("orders (1):\n\n| order no. | quantity | style |\n| --- | ---: | --- |\n| 2026-001 | 300 | A01 衬衫 |");
  });
});
