import type { LanguageModelV4CallOptions, LanguageModelV4FunctionTool, LanguageModelV4Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { offlineModel } from "../../src/chat/offline/offline-model.ts";
import { inputJsonSchema } from "../../src/tools/json-schemas.ts";
import { WEFT_TOOLS } from "../../src/tools/registry.ts";

// Thursday 2026-11-26 in Shanghai: 上周五 is 2026-11-20, 周一 2026-11-23, next week 11-30 to 12-06.
const model = offlineModel({ timeZone: "Asia/Shanghai", now: () => new Date("2026-11-26T04:00:00Z") });

// Every tool as the chat offers it to a boss, with its real JSON Schema: the model keeps only the
// arguments a tool declares and asks for the ones it requires.
const TOOLS: LanguageModelV4FunctionTool[] = WEFT_TOOLS.map((tool) => ({
  type: "function",
  name: tool.name,
  description: tool.description,
  inputSchema: inputJsonSchema(tool) as LanguageModelV4FunctionTool["inputSchema"],
}));

/** A tool call with exactly these arguments, or a reply in words that contains each string. */
type Expected = { tool: string; input: Record<string, unknown> } | { says: string[] };

const call = (tool: string, input: Record<string, unknown>): Expected => ({ tool, input });
const says = (...words: string[]): Expected => ({ says: words });

const piece = (input: Record<string, unknown>) => call("prepare_piece_record", input);
const order = (input: Record<string, unknown>) => call("prepare_order", input);
const pieces = (input: Record<string, unknown>) => call("query_piece_records", input);
const orders = (input: Record<string, unknown>) => call("query_orders", input);
const payroll = (input: Record<string, unknown>) => call("query_payroll", input);
const NEXT_WEEK = { due_from: "2026-11-30", due_to: "2026-12-06" };
const SOON = { status: "open", due_to: "2026-12-03" };
const HAILAN = { customer: "海澜", style: "A01", quantity: 800, due_date: "2026-12-20" };
const ZHANG_COLLAR = { employee: "张三", process: "领子", quantity: 50 };

// [sentence, where the product shows it (or what it varies), what the model must do]
const EXAMPLES: [string, string, Expected][] = [
  // The source design (seeds/003): its sequence diagram, its table of modes and its API example.
  ["帮我录入，张三今天做了50件领子", "design", piece({ ...ZHANG_COLLAR, work_date: "2026-11-26" })],
  ["张三这个月做了多少件", "design", pieces({ employee: "张三", period: "this_month" })],
  ["帮我查一下张三这个月的计件", "design", pieces({ employee: "张三", period: "this_month" })],
  ["帮我录入计件", "design", says("还差一点信息", "是哪道工序", "多少件")],
  ["怎么创建订单", "design", says("离线模型")],
  ["工资怎么发放", "design", says("离线模型")],
  // The demo workshop's guide (knowledge/docs/车间系统使用手册).
  ["怎么新建订单", "guide", says("离线模型")],
  ["张敏这个月做了多少件", "guide", pieces({ employee: "张敏", period: "this_month" })],
  ["帮我新建订单：海澜，A01 男式衬衫，800 件，12 月 20 日交货", "guide", order(HAILAN)],
  ["下周要交的订单有哪些", "guide", orders({ status: "open", ...NEXT_WEEK })],
  ["2026-001 做到多少件了", "guide", orders({ order: "2026-001" })],
  [
    "帮我登记：今天 2026-001 上领子 80 件",
    "guide",
    piece({ process: "上领子", quantity: 80, order: "2026-001", work_date: "2026-11-26" }),
  ],
  ["李娟这个月做了多少件", "guide", pieces({ employee: "李娟", period: "this_month" })],
  ["上领子这周一共做了多少", "guide", pieces({ process: "上领子", period: "this_week" })],
  ["这个月每个人做了多少件", "guide", pieces({ period: "this_month", group_by: "employee" })],
  ["我三月的工资怎么算的", "guide", payroll({ month: "2026-03" })],
  ["这个月每个人的工资", "guide", payroll({ month: "2026-11" })],
  ["裤腰的地方老是跳针", "guide", call("initiate_session", { user_query: "裤腰的地方老是跳针" })],
  // The README.
  ["三月工资", "README", payroll({ month: "2026-03" })],
  ["工资单确认后发现错了怎么办", "README", says("离线模型")],
  ["新建一个订单", "README", says("客户是谁", "款式是哪一个", "多少件", "哪天交货")],
  ["本月新增的订单", "README", orders({ created_from: "2026-11-01", created_to: "2026-11-30" })],
  [
    "把订单2026-001的数量改成900",
    "README",
    call("prepare_business_change", { change: "order", order: "2026-001", quantity: 900 }),
  ],
  // Which order is not said: the reply says how to ask, with an order's number.
  ["交期推迟一周", "README", says("可以在对话里修改已有的订单", "2026-001 推迟到12月20日交货")],
  ["员工能看到别人的工资吗", "README", says("离线模型")],
  // Asked of one order, whatever its status: a status filter would hide an order still in production.
  ["订单2026-001是否已完成", "README", orders({ order: "2026-001" })],
  ["明天要交多少件", "README", orders({ status: "open", due_from: "2026-11-27", due_to: "2026-11-27" })],
  ["orders due this week", "README", orders({ due_from: "2026-11-23", due_to: "2026-11-29" })],
  ["orders placed this week", "README", orders({ created_from: "2026-11-23", created_to: "2026-11-29" })],
  // The model's own help (answers.ts), in both languages.
  ["生产中的订单有哪些", "help", orders({ status: "in_production" })],
  ["李娟今天做了多少件", "help", pieces({ employee: "李娟", period: "today" })],
  ["张敏这个月的工资", "help", payroll({ employee: "张敏", month: "2026-11" })],
  ["上领子的单价", "help", call("query_processes", { name_contains: "上领子" })],
  ["有哪些员工", "help", call("query_employees", {})],
  ["给李娟记上领子200件", "help", piece({ employee: "李娟", process: "上领子", quantity: 200 })],
  ["衣服起皱怎么办", "help", call("initiate_session", { user_query: "衣服起皱怎么办" })],
  ["搜索知识库 如何新建订单", "help", call("knowledge_search", { query: "如何新建订单" })],
  ["which orders are in production", "help", orders({ status: "in_production" })],
  ["how many pieces did Li Juan do today", "help", pieces({ employee: "Li Juan", period: "today" })],
  ["payroll for this month", "help", payroll({ month: "2026-11" })],
  ["list the processes", "help", call("query_processes", {})],
  ["list employees", "help", call("query_employees", {})],
  ["record 200 pieces of collar for Li Juan", "help", piece({ employee: "Li Juan", process: "collar", quantity: 200 })],
  [
    "help me troubleshoot a garment defect",
    "help",
    call("initiate_session", { user_query: "help me troubleshoot a garment defect" }),
  ],
  ["search the manual for new orders", "help", call("knowledge_search", { query: "new orders" })],
  // Recording pieces: word order.
  ["给张三记50件上领子", "word order", piece({ employee: "张三", process: "上领子", quantity: 50 })],
  ["张三上领子50件帮我记一下", "word order", piece({ employee: "张三", process: "上领子", quantity: 50 })],
  ["记一下：李娟 领子 50件", "word order", piece({ employee: "李娟", process: "领子", quantity: 50 })],
  ["李娟做了50件领子，录入一下", "word order", piece({ employee: "李娟", process: "领子", quantity: 50 })],
  [
    "张三 上领子 50 件 今天 帮我记上",
    "word order",
    piece({ employee: "张三", process: "上领子", quantity: 50, work_date: "2026-11-26" }),
  ],
  ["今天做了50件领子，帮我录入", "word order", piece({ process: "领子", quantity: 50, work_date: "2026-11-26" })],
  ["我今天上领子80件，帮我登记", "word order", piece({ process: "上领子", quantity: 80, work_date: "2026-11-26" })],
  ["给张三记50件领子，订单2026-001", "word order", piece({ ...ZHANG_COLLAR, order: "2026-001" })],
  // Recording pieces: dates.
  ["帮我录入，张三昨天做了50件领子", "dates", piece({ ...ZHANG_COLLAR, work_date: "2026-11-25" })],
  ["帮我录入，张三上周五做了50件领子", "dates", piece({ ...ZHANG_COLLAR, work_date: "2026-11-20" })],
  ["帮我录入，张三11月20日做了50件领子", "dates", piece({ ...ZHANG_COLLAR, work_date: "2026-11-20" })],
  [
    "张三前天做了一百二十件钉扣，帮我记上",
    "dates",
    piece({ employee: "张三", process: "钉扣", quantity: 120, work_date: "2026-11-24" }),
  ],
  [
    "帮我记一下张三2026-11-20上领子60件",
    "dates",
    piece({ employee: "张三", process: "上领子", quantity: 60, work_date: "2026-11-20" }),
  ],
  ["张三周一做了30件袖子，记一下", "dates", piece({ employee: "张三", process: "袖子", quantity: 30, work_date: "2026-11-23" })],
  ["帮我录入，张三星期三做了50件领子", "dates", piece({ ...ZHANG_COLLAR, work_date: "2026-11-25" })],
  // Recording pieces: numbers and processes named by their part.
  ["张三今天做了五十件领子，帮我录入", "numbers", piece({ ...ZHANG_COLLAR, work_date: "2026-11-26" })],
  ["录入张三今天锁边八十件", "numbers", piece({ employee: "张三", process: "锁边", quantity: 80, work_date: "2026-11-26" })],
  ["帮李娟登记昨天拉链30件", "part", piece({ employee: "李娟", process: "拉链", quantity: 30, work_date: "2026-11-25" })],
  ["帮我录入，张三今天做了50件褶裥", "part", piece({ employee: "张三", process: "褶裥", quantity: 50, work_date: "2026-11-26" })],
  // Recording pieces: what is left out is asked for.
  ["帮我录入，张三今天做了50件", "question", says("还差一点信息", "是哪道工序")],
  ["帮我录入张三今天的领子", "question", says("还差一点信息", "多少件")],
  // New orders without labels, in other orders and words.
  ["帮我下个订单，海澜，男式衬衫，800件，12月20日交", "new order", order({ ...HAILAN, style: "男式衬衫" })],
  ["海澜要800件A01，12月20日交货，帮我建个订单", "new order", order(HAILAN)],
  ["新建订单，客户海澜，款式A01，800件，交期12月20日", "new order", order(HAILAN)],
  ["给海澜新建订单，A01，800件，交期2026-12-20", "new order", order(HAILAN)],
  ["新建订单：海澜 A01 八百件 12月20日交货", "new order", order(HAILAN)],
  ["帮我新建订单：海澜，A01，800件", "new order", says("哪天交货")],
  // Piece records, payroll and orders asked in everyday words.
  ["张三今天做了多少", "pieces", pieces({ employee: "张三", period: "today" })],
  ["张三昨天做了几件", "pieces", pieces({ employee: "张三", period: "yesterday" })],
  ["张三上周五做了多少件", "pieces", pieces({ employee: "张三", date_from: "2026-11-20", date_to: "2026-11-20" })],
  ["张三11月20日做了多少件", "pieces", pieces({ employee: "张三", date_from: "2026-11-20", date_to: "2026-11-20" })],
  ["李娟上个月做了多少件", "pieces", pieces({ employee: "李娟", period: "last_month" })],
  ["这周上领子做了多少件", "pieces", pieces({ process: "上领子", period: "this_week" })],
  ["这个月每道工序做了多少件", "pieces", pieces({ period: "this_month", group_by: "process" })],
  ["李娟上个月工资多少", "payroll", payroll({ employee: "李娟", month: "2026-10" })],
  ["我这个月的工资", "payroll", payroll({ month: "2026-11" })],
  ["张三这个月挣了多少钱", "payroll", payroll({ employee: "张三", month: "2026-11" })],
  // Two periods compared (docs/chat.md): the first call is the period asked about.
  ["张三上个月比这个月多做了多少件", "comparison", pieces({ employee: "张三", period: "last_month" })],
  ["这个月比上个月多做了多少件", "comparison", pieces({ period: "this_month" })],
  ["李娟这个月比上个月多挣了多少", "comparison", payroll({ employee: "李娟", month: "2026-11" })],
  ["跟上个月比，张三这个月多做了多少件", "comparison", pieces({ employee: "张三", period: "this_month" })],
  ["张三比上个月多做了多少件", "comparison", pieces({ employee: "张三", period: "this_month" })],
  ["有哪些订单快到期了", "due soon", orders(SOON)],
  ["快到期的订单", "due soon", orders(SOON)],
  ["最近要交货的订单有哪些", "due soon", orders(SOON)],
  ["这周到期的订单", "orders", orders({ due_from: "2026-11-23", due_to: "2026-11-29" })],
  ["12月20日要交的订单", "orders", orders({ status: "open", due_from: "2026-12-20", due_to: "2026-12-20" })],
  ["海澜的订单", "orders", orders({ customer_contains: "海澜" })],
  ["A01的订单有哪些", "orders", orders({ style: "A01" })],
  ["待生产的订单", "orders", orders({ status: "pending" })],
  ["领子多少钱一件", "processes", call("query_processes", { name_contains: "领子" })],
  ["上领子的工价是多少", "processes", call("query_processes", { name_contains: "上领子" })],
  ["张三的工号是多少", "employees", call("query_employees", { name_contains: "张三" })],
  ["跳线了怎么处理", "consultation", call("initiate_session", { user_query: "跳线了怎么处理" })],
  [
    "Record 50 pieces of collar for Zhang San today",
    "English",
    piece({ employee: "Zhang San", process: "collar", quantity: 50, work_date: "2026-11-26" }),
  ],
];

function ask(prompt: LanguageModelV4Prompt): LanguageModelV4CallOptions {
  return { prompt, tools: TOOLS };
}

async function step(prompt: LanguageModelV4Prompt): Promise<Expected> {
  const { content } = await model.doGenerate(ask(prompt));
  const toolCall = content.find((c) => c.type === "tool-call");
  if (toolCall) return { tool: toolCall.toolName, input: JSON.parse(toolCall.input) };
  return { says: [content.map((c) => (c.type === "text" ? c.text : "")).join("")] };
}

const user = (text: string): LanguageModelV4Prompt[number] => ({ role: "user", content: [{ type: "text", text }] });

describe("every example the product shows, read by the offline model with the real tools' schemas", () => {
  it("covers at least 80 sentences", () => {
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(80);
  });

  it.each(EXAMPLES)("%s (%s)", async (text, _source, expected) => {
    const got = await step([user(text)]);
    if ("tool" in expected) {
      expect(got).toEqual(expected);
      return;
    }
    expect(got).not.toHaveProperty("tool");
    const reply = (got as { says: string[] }).says[0] ?? "";
    for (const word of expected.says) expect(reply).toContain(word);
    // A Chinese question gets a Chinese reply with no developer English in it.
    expect(reply).not.toMatch(/invalid_input|Invalid|undefined|expected string/);
  });
});

describe("a question back and its answer", () => {
  it("prepares the record once the missing process is given", async () => {
    const first = "帮我录入，张三今天做了50件";
    const question = await step([user(first)]);
    const asked = (question as { says: string[] }).says[0] ?? "";
    const next = await step([user(first), { role: "assistant", content: [{ type: "text", text: asked }] }, user("领子")]);
    expect(next).toEqual(piece({ ...ZHANG_COLLAR, work_date: "2026-11-26" }));
  });

  it("takes a bare number as the count it asked for", async () => {
    const first = "帮我录入张三今天的领子";
    const asked = ((await step([user(first)])) as { says: string[] }).says[0] ?? "";
    const next = await step([user(first), { role: "assistant", content: [{ type: "text", text: asked }] }, user("50")]);
    expect(next).toEqual(piece({ ...ZHANG_COLLAR, work_date: "2026-11-26" }));
  });
});

const said = (text: string): LanguageModelV4Prompt[number] => ({ role: "assistant", content: [{ type: "text", text }] });

describe("a conversation the offline model follows", () => {
  it("carries the period over to another person: 那李娟呢", async () => {
    const next = await step([user("张三这个月做了多少件"), said("张三这个月做了 2752 件。"), user("那李娟呢？")]);
    expect(next).toEqual(pieces({ employee: "李娟", period: "this_month" }));
  });

  it("carries the person over to another period: 上个月呢, then to another person again", async () => {
    const history = [user("李娟这个月做了多少件"), said("李娟这个月做了 800 件。"), user("上个月呢")];
    expect(await step(history)).toEqual(pieces({ employee: "李娟", period: "last_month" }));
    const more = [...history, said("李娟上个月做了 700 件。"), user("那张敏呢")];
    expect(await step(more)).toEqual(pieces({ employee: "张敏", period: "last_month" }));
  });

  it("reads 她 as the person asked about before, on a new topic", async () => {
    const next = await step([user("李娟这个月做了多少件"), said("李娟这个月做了 800 件。"), user("她上个月工资呢")]);
    expect(next).toEqual(payroll({ employee: "李娟", month: "2026-10" }));
  });

  it("leaves a question that stands on its own alone", async () => {
    const next = await step([user("张三这个月做了多少件"), said("张三这个月做了 2752 件。"), user("生产中的订单有哪些")]);
    expect(next).toEqual(orders({ status: "in_production" }));
    const other = await step([user("张三这个月做了多少件"), said("…"), user("其他员工呢")]);
    expect(other).not.toEqual(pieces({ employee: "其张三员工", period: "this_month" }));
  });

  it("greets and thanks in one line with suggestions the person's role may use", async () => {
    const staff = { role: "system" as const, content: "You are talking with 李娟 (role: staff)." };
    const boss = { role: "system" as const, content: "You are talking with 王老板 (role: boss)." };
    const hello = ((await step([staff, user("你好")])) as { says: string[] }).says[0] ?? "";
    expect(hello.split("\n")[0]).toBe("你好！还可以这样问我：");
    expect(hello).toContain("我这个月的工资");
    expect(hello).not.toContain("张敏");
    const thanks = ((await step([boss, user("谢谢")])) as { says: string[] }).says[0] ?? "";
    expect(thanks.split("\n")[0]).toBe("不客气！还可以这样问我：");
    expect(thanks).toContain("快到期的订单");
    expect(thanks.split("\n").filter((l) => l.startsWith("- "))).toHaveLength(3);
  });

  it("gives staff examples about their own work when it cannot help", async () => {
    const staff = { role: "system" as const, content: "You are talking with 李娟 (role: staff)." };
    const reply = ((await step([staff, user("天气怎么样")])) as { says: string[] }).says[0] ?? "";
    expect(reply).toContain("我这个月的工资");
    expect(reply).not.toContain("张敏这个月的工资");
  });
});

// The reference "everything" server's tools as the chat offers them once it is registered.
const EVERYTHING: LanguageModelV4FunctionTool[] = [
  {
    type: "function",
    name: "mcp_everything_echo",
    description: "Echoes back the input",
    inputSchema: {
      type: "object",
      properties: { message: { type: "string", description: "Message to echo" } },
      required: ["message"],
    },
  },
  {
    type: "function",
    name: "mcp_everything_get_sum",
    description: "Returns the sum of two numbers",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number", description: "First number" }, b: { type: "number", description: "Second number" } },
      required: ["a", "b"],
    },
  },
  {
    type: "function",
    name: "mcp_everything_annotated_message",
    description: "Demonstrates annotations",
    inputSchema: {
      type: "object",
      properties: { messageType: { type: "string", enum: ["error", "success", "debug"] }, includeImage: { type: "boolean" } },
      required: ["messageType"],
    },
  },
];

async function external(text: string): Promise<Expected> {
  const { content } = await model.doGenerate({ prompt: [user(text)], tools: [...TOOLS, ...EVERYTHING] });
  const toolCall = content.find((c) => c.type === "tool-call");
  if (toolCall) return { tool: toolCall.toolName, input: JSON.parse(toolCall.input) };
  return { says: [content.map((c) => (c.type === "text" ? c.text : "")).join("")] };
}

describe("a registered server's tools, offline", () => {
  it.each<[string, Expected]>([
    ["echo hello", call("mcp_everything_echo", { message: "hello" })],
    ["用 echo 工具说：你好", call("mcp_everything_echo", { message: "你好" })],
    ["用 everything 的 echo 说你好", call("mcp_everything_echo", { message: "你好" })],
    ["get-sum 2 3", call("mcp_everything_get_sum", { a: 2, b: 3 })],
    ["调用 get-sum 2 和 3", call("mcp_everything_get_sum", { a: 2, b: 3 })],
    ["call annotated-message with success", call("mcp_everything_annotated_message", { messageType: "success" })],
  ])("%s", async (text, expected) => {
    expect(await external(text)).toEqual(expected);
  });

  it("asks for the one plain value a tool's schema requires and the words leave out, by the schema's description", async () => {
    const reply = await external("调用 echo");
    expect((reply as { says: string[] }).says[0]).toContain("message（Message to echo）是什么？");
  });

  it("calls a tool with several arguments left out as it is, for the chat to give the person a form", async () => {
    expect(await external("调用 get-sum")).toEqual(call("mcp_everything_get_sum", {}));
    // One plain number left out is asked for in words.
    const one = (await external("调用 get-sum 2")) as { says: string[] };
    expect(one.says[0]).toContain("b（Second number）是什么？");
  });

  it("calls the tool of the server the request names when two servers offer one of that name", async () => {
    const { content } = await model.doGenerate({
      prompt: [user("用 second 的 echo 说你好")],
      tools: [...EVERYTHING, { ...(EVERYTHING[0] as LanguageModelV4FunctionTool), name: "mcp_second_echo" }],
    });
    expect(content.find((c) => c.type === "tool-call")).toMatchObject({ toolName: "mcp_second_echo" });
  });

  it("calls a tool as a submitted form asks, the arguments as written", async () => {
    expect(await external('mcp_everything_get_sum {"a":2,"b":3.5}')).toEqual(call("mcp_everything_get_sum", { a: 2, b: 3.5 }));
    // Not a tool offered, or not an object: read as any other words.
    expect(await external('mcp_everything_nothing {"a":2}')).not.toHaveProperty("tool", "mcp_everything_nothing");
    expect(await external("mcp_everything_get_sum [2, 3]")).not.toEqual(call("mcp_everything_get_sum", [2, 3] as never));
  });

  it("leaves Weft's own requests to Weft's tools, and English words that name no tool alone", async () => {
    expect(await external("张三这个月做了多少件")).toEqual(pieces({ employee: "张三", period: "this_month" }));
    expect(await external("I will echo that later")).not.toHaveProperty("tool", "mcp_everything_echo");
  });

  it("says what an external tool answered in its own words", async () => {
    const { content } = await model.doGenerate({
      prompt: [
        user("echo hello"),
        { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "mcp_everything_echo", input: {} }] },
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "c1",
              toolName: "mcp_everything_echo",
              output: { type: "json", value: { content: [{ type: "text", text: "Echo: hello" }] } },
            },
          ],
        },
      ],
    });
    expect(content).toEqual([{ type: "text", text: "Echo: hello" }]);
  });
});
