import type { LanguageModelV4FunctionTool, LanguageModelV4Prompt } from "@ai-sdk/provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pendingForModel } from "../../src/chat/model-tools.ts";
import { offlineModel } from "../../src/chat/offline/offline-model.ts";
import { inputJsonSchema } from "../../src/tools/json-schemas.ts";
import { WEFT_TOOLS } from "../../src/tools/registry.ts";
import { runTool } from "../../src/tools/run-tool.ts";
import type { UserContext } from "../../src/user-context.ts";
import { dbOf, testContext, users } from "../fixtures.ts";

// Workshop people's sentences as they type them on a phone (typos from the input method, words
// left out, answers to the card's question, numbers in both forms, 还没 / 没做完 / 在做的), each with
// the tool and arguments the offline model must call; then every business question answered with
// the real tool on the demo workshop, its reply's first sentence checked for the period and the
// filters it looked at (issue 38). Thursday 2026-11-26 in Shanghai for the model.
const model = offlineModel({ timeZone: "Asia/Shanghai", now: () => new Date("2026-11-26T04:00:00Z") });

const TOOLS: LanguageModelV4FunctionTool[] = WEFT_TOOLS.map((tool) => ({
  type: "function",
  name: tool.name,
  description: tool.description,
  inputSchema: inputJsonSchema(tool) as LanguageModelV4FunctionTool["inputSchema"],
}));

type Expected = { tool: string; input: Record<string, unknown> } | { says: string[]; refusal?: true };
const call = (tool: string, input: Record<string, unknown>): Expected => ({ tool, input });
const says = (...words: string[]): Expected => ({ says: words });
const refuses = (...words: string[]): Expected => ({ says: words, refusal: true });

// A second open order of style A01, so that a piece record of an A01 process asks which order.
const SECOND_A01 = { id: "o-talk-a01", no: "2026-901", customer: "海澜" };
const FIRST_A01 = "o-jx-1";
const COLLAR = { employee: "张三", process: "上领子", quantity: 50 };
const CARD = ["给张三记50件上领子"];

// [what the person types, what the model must do, what they said before it (each answered for real)]
const TABLE: [string, Expected, string[]?][] = [
  ["张三这个月做了多少件", call("query_piece_records", { employee: "张三", period: "this_month" })],
  ["张三这个越做了多少件", call("query_piece_records", { employee: "张三", period: "this_month" })],
  ["张三这个悦做了多少件", call("query_piece_records", { employee: "张三", period: "this_month" })],
  ["张三这个阅干了多少", call("query_piece_records", { employee: "张三", period: "this_month" })],
  ["李娟今天做了几件", call("query_piece_records", { employee: "李娟", period: "today" })],
  ["李娟今添做了几件", call("query_piece_records", { employee: "李娟", period: "today" })],
  ["李娟做天做了多少件", call("query_piece_records", { employee: "李娟", period: "yesterday" })],
  ["李娟昨天做了多少", call("query_piece_records", { employee: "李娟", period: "yesterday" })],
  ["张敏上个月做了多少件", call("query_piece_records", { employee: "张敏", period: "last_month" })],
  ["张敏上个越做了多少件", call("query_piece_records", { employee: "张敏", period: "last_month" })],
  ["王芳这周做了多少件", call("query_piece_records", { employee: "王芳", period: "this_week" })],
  ["王芳这州做了多少件", call("query_piece_records", { employee: "王芳", period: "this_week" })],
  ["刘强上周做了多少件", call("query_piece_records", { employee: "刘强", period: "last_week" })],
  ["赵丽前天做了多少件", call("query_piece_records", { employee: "赵丽", date_from: "2026-11-24", date_to: "2026-11-24" })],
  ["张三今天做了多少件啊", call("query_piece_records", { employee: "张三", period: "today" })],
  ["张三今天做了多少见", call("query_piece_records", { employee: "张三", period: "today" })],
  ["张三这个月一共做了几件", call("query_piece_records", { employee: "张三", period: "this_month" })],
  ["这个月上领子做了多少件", call("query_piece_records", { process: "上领子", period: "this_month" })],
  ["上领子这周一共做了多少", call("query_piece_records", { process: "上领子", period: "this_week" })],
  ["这个月锁边做了多少", call("query_piece_records", { process: "锁边", period: "this_month" })],
  ["这个月每个人做了多少件", call("query_piece_records", { period: "this_month", group_by: "employee" })],
  ["这个月大家各做了多少件", call("query_piece_records", { period: "this_month", group_by: "employee" })],
  ["今天车间一共做了多少件", call("query_piece_records", { period: "today" })],
  ["昨天一共做了多少件", call("query_piece_records", { period: "yesterday" })],
  ["这周一共做了多少件", call("query_piece_records", { period: "this_week" })],
  ["张三做了多少件", call("query_piece_records", { employee: "张三" })],
  ["李娟一共做了多少件", call("query_piece_records", { employee: "李娟" })],
  ["张三11月做了多少件", call("query_piece_records", { employee: "张三", month: "2026-11" })],
  ["张三2026年10月做了多少件", call("query_piece_records", { employee: "张三", month: "2026-10" })],
  ["张三十月份做了多少件", call("query_piece_records", { employee: "张三", month: "2026-10" })],
  ["李娟3月做了多少件", call("query_piece_records", { employee: "李娟", month: "2026-03" })],
  ["张三这个月上领子做了多少", call("query_piece_records", { employee: "张三", process: "上领子", period: "this_month" })],
  ["李娟这个月上袖子做了多少件", call("query_piece_records", { employee: "李娟", process: "上袖子", period: "this_month" })],
  ["张三这个月挣了多少钱", call("query_payroll", { employee: "张三", month: "2026-11" })],
  ["张三这个月工资多少", call("query_payroll", { employee: "张三", month: "2026-11" })],
  ["张三这个月的工资", call("query_payroll", { employee: "张三", month: "2026-11" })],
  ["张敏这个月的工资", call("query_payroll", { employee: "张敏", month: "2026-11" })],
  ["李娟上个月工资多少", call("query_payroll", { employee: "李娟", month: "2026-10" })],
  ["李娟上个月工姿多少", call("query_payroll", { employee: "李娟", month: "2026-10" })],
  ["这个月每个人的工资", call("query_payroll", { month: "2026-11" })],
  ["这个月大家的工资", call("query_payroll", { month: "2026-11" })],
  ["上个月大家的工资", call("query_payroll", { month: "2026-10" })],
  ["三月的工资是多少", call("query_payroll", { month: "2026-03" })],
  ["张三十月的工资", call("query_payroll", { employee: "张三", month: "2026-10" })],
  ["王芳上个月拿了多少钱", call("query_payroll", { employee: "王芳", month: "2026-10" })],
  ["刘强这个月能拿多少", call("query_payroll", { employee: "刘强", month: "2026-11" })],
  ["赵丽这个月工资是多少啊", call("query_payroll", { employee: "赵丽", month: "2026-11" })],
  ["哪些订单还没完成", call("query_orders", { status: "open" })],
  ["没做完的订单有哪些", call("query_orders", { status: "open" })],
  ["在做的订单", call("query_orders", { status: "open" })],
  ["在做的订单有哪些", call("query_orders", { status: "open" })],
  ["还没做完的单子", call("query_orders", { status: "open" })],
  ["还没完成的定单", call("query_orders", { status: "open" })],
  ["生产中的订单有哪些", call("query_orders", { status: "in_production" })],
  ["待生产的订单", call("query_orders", { status: "pending" })],
  ["还没开始做的订单", call("query_orders", { status: "pending" })],
  ["已完成的订单", call("query_orders", { status: "completed" })],
  ["做完了的订单有哪些", call("query_orders", { status: "completed" })],
  ["取消的订单", call("query_orders", { status: "cancelled" })],
  ["所有订单", call("query_orders", {})],
  ["全部订单", call("query_orders", {})],
  ["查一下订单", call("query_orders", {})],
  ["看下订单", call("query_orders", {})],
  ["帮我看一下订单", call("query_orders", {})],
  ["订单都有哪些", call("query_orders", {})],
  ["海澜的订单", call("query_orders", { customer_contains: "海澜" })],
  ["海澜的订单有哪些", call("query_orders", { customer_contains: "海澜" })],
  ["优衣美的订单", call("query_orders", { customer_contains: "优衣美" })],
  ["太平鸟那几张单子", call("query_orders", { customer_contains: "太平鸟" })],
  ["海澜还没完成的订单", call("query_orders", { status: "open", customer_contains: "海澜" })],
  ["优衣美在做的订单", call("query_orders", { status: "open", customer_contains: "优衣美" })],
  ["2026-001做到多少件了", call("query_orders", { order: "2026-001" })],
  ["2026-001 到哪了", call("query_orders", { order: "2026-001" })],
  ["订单2026-002还差多少", call("query_orders", { order: "2026-002" })],
  ["2026-002还差多少件", call("query_orders", { order: "2026-002" })],
  ["2026-003完成了吗", call("query_orders", { order: "2026-003" })],
  ["快到期的订单", call("query_orders", { status: "open", due_to: "2026-12-03" })],
  ["有哪些订单快到期了", call("query_orders", { status: "open", due_to: "2026-12-03" })],
  ["下周要交的订单有哪些", call("query_orders", { status: "open", due_from: "2026-11-30", due_to: "2026-12-06" })],
  ["这个月要交的订单", call("query_orders", { status: "open", due_from: "2026-11-01", due_to: "2026-11-30" })],
  ["下个月要交的订单", call("query_orders", { status: "open", due_from: "2026-12-01", due_to: "2026-12-31" })],
  ["12月要交的订单有哪些", call("query_orders", { status: "open", due_from: "2026-12-01", due_to: "2026-12-31" })],
  ["本月新增的订单", call("query_orders", { created_from: "2026-11-01", created_to: "2026-11-30" })],
  ["这个月下了几张订单", call("query_orders", { created_from: "2026-11-01", created_to: "2026-11-30" })],
  ["上领子的单价是多少", call("query_processes", { name_contains: "上领子" })],
  ["上领子多少钱一件", call("query_processes", { name_contains: "上领子" })],
  ["锁边的单价", call("query_processes", { name_contains: "锁边" })],
  ["钉扣工价多少", call("query_processes", { name_contains: "钉扣" })],
  ["A01有哪些工序", call("query_processes", { style: "A01" })],
  ["B02的工序和单价", call("query_processes", { style: "B02" })],
  ["男式衬衫的工序", call("query_processes", { style: "男式衬衫" })],
  ["车间有哪些员工", call("query_employees", {})],
  ["有哪些员工", call("query_employees", {})],
  ["员工张敏的工号", call("query_employees", { name_contains: "张敏" })],
  ["张三的工号是多少", call("query_employees", { name_contains: "张三" })],
  ["给张三记50件上领子", call("prepare_piece_record", { employee: "张三", process: "上领子", quantity: 50 })],
  ["给张三记上领子50件", call("prepare_piece_record", { employee: "张三", process: "上领子", quantity: 50 })],
  ["给李娟记上领子200件", call("prepare_piece_record", { employee: "李娟", process: "上领子", quantity: 200 })],
  ["给李娟记上袖子两百件", call("prepare_piece_record", { employee: "李娟", process: "上袖子", quantity: 200 })],
  [
    "李娟昨天锁边两百件，帮我录入",
    call("prepare_piece_record", { employee: "李娟", process: "锁边", quantity: 200, work_date: "2026-11-25" }),
  ],
  [
    "张三 上领子 50 件 今天 帮我记上",
    call("prepare_piece_record", { employee: "张三", process: "上领子", quantity: 50, work_date: "2026-11-26" }),
  ],
  ["帮张三记上领子80件", call("prepare_piece_record", { employee: "张三", process: "上领子", quantity: 80 })],
  [
    "王芳今天钉扣一百二十件，登记一下",
    call("prepare_piece_record", { employee: "王芳", process: "钉扣", quantity: 120, work_date: "2026-11-26" }),
  ],
  [
    "记一下刘强今天裁剪60件",
    call("prepare_piece_record", { employee: "刘强", process: "裁剪", quantity: 60, work_date: "2026-11-26" }),
  ],
  [
    "张三前天做了一百二十件钉扣，帮我记上",
    call("prepare_piece_record", { employee: "张三", process: "钉扣", quantity: 120, work_date: "2026-11-24" }),
  ],
  [
    "张三做天上领子30件帮我记一下",
    call("prepare_piece_record", { employee: "张三", process: "上领子", quantity: 30, work_date: "2026-11-25" }),
  ],
  [
    "给张三记今天上领子 12 件，订单 2026-001",
    call("prepare_piece_record", {
      employee: "张三",
      process: "上领子",
      quantity: 12,
      order: "2026-001",
      work_date: "2026-11-26",
    }),
  ],
  [
    "帮我登记：今天 2026-001 上领子 80 件",
    call("prepare_piece_record", { process: "上领子", quantity: 80, order: "2026-001", work_date: "2026-11-26" }),
  ],
  [
    "张三今天领子做了50件，记上",
    call("prepare_piece_record", { employee: "张三", process: "领子", quantity: 50, work_date: "2026-11-26" }),
  ],
  ["赵丽整烫一百五十件 记一下", call("prepare_piece_record", { employee: "赵丽", process: "整烫", quantity: 150 })],
  ["给王芳记锁眼1百件", call("prepare_piece_record", { employee: "王芳", process: "锁眼", quantity: 100 })],
  ["给王芳记锁眼 1,200 件", call("prepare_piece_record", { employee: "王芳", process: "锁眼", quantity: 1200 })],
  ["给张敏记上拉链三十五件", call("prepare_piece_record", { employee: "张敏", process: "上拉链", quantity: 35 })],
  ["帮我录入计件", says("还差一点信息", "是哪道工序", "多少件")],
  ["帮我记一下", says("还差一点信息", "多少件")],
  [
    "帮我新建订单：海澜，A01 男式衬衫，800 件，12 月 20 日交货",
    call("prepare_order", { customer: "海澜", style: "A01", quantity: 800, due_date: "2026-12-20" }),
  ],
  [
    "给华美服饰下一个订单，款号A-102，500件，12月20日交货",
    call("prepare_order", { customer: "华美服饰", style: "A-102", quantity: 500, due_date: "2026-12-20" }),
  ],
  [
    "新建订单 客户是锦绣 款式T恤 300件 交期2027-01-15",
    call("prepare_order", { customer: "锦绣", style: "T恤", quantity: 300, due_date: "2027-01-15" }),
  ],
  [
    "新建一个订单，优衣美，B02，两千件，明年1月10号交",
    call("prepare_order", { customer: "优衣美", style: "B02", quantity: 2000, due_date: "2027-01-10" }),
  ],
  // Pay is worked out; a boss is told to change its allowances and deductions (issue 43).
  ["帮我把张三的工资改成10000", refuses("Weft 不能直接修改工资", "补贴和扣款")],
  ["把张三的工资改成一万", refuses("Weft 不能直接修改工资", "补贴和扣款")],
  // A boss's order and price changes are prepared (issue 43); staff are refused (offline-declines.test.ts).
  ["帮我把订单2026-001的数量改成900", call("prepare_business_change", { change: "order", order: "2026-001", quantity: 900 })],
  [
    "2026-001 推迟到12月20日交货",
    call("prepare_business_change", { change: "order", order: "2026-001", due_date: "2026-12-20" }),
  ],
  ["把订单2026-003的交期往后推三天", refuses("可以在对话里修改已有的订单", "例如说")],
  ["交期推迟一周", refuses("可以在对话里修改已有的订单")],
  ["把上领子的单价改成0.9元", call("prepare_business_change", { change: "price", process: "上领子", unit_price: 0.9 })],
  [
    "上领子改成九毛，从下个月一号起",
    call("prepare_business_change", { change: "price", process: "上领子", unit_price: 0.9, date: "2026-12-01" }),
  ],
  ["单价调到0.5", refuses("可以在对话里修改工序单价")],
  ["删除订单2026-005", refuses("Weft 不能删除已有的订单")],
  ["把张三昨天的计件删掉", refuses("Weft 不能删除已登记的计件")],
  ["把李娟的工号改成010", refuses("可以在对话里修改员工档案")],
  // A boss's 补贴 is prepared (issue 43); staff are refused (offline-declines.test.ts).
  [
    "给张三加200块全勤奖",
    {
      tool: "prepare_business_change",
      input: {
        change: "adjustment_add",
        employee: "张三",
        kind: "allowance",
        amount: 200,
        month: expect.stringMatching(/^\d{4}-\d\d$/),
        reason: "全勤奖",
      },
    },
  ],
  ["下个月的工资", says("下个月还没到，没有工资可查")],
  ["明天做了多少件", says("明天还没到")],
  ["给李娟记明天上领子200件", says("计件只能登记已经做完的")],
  ["张三这个鈅做了多少件", says("还差一点信息", "“这个鈅”我没看懂，说的是哪段时间？")],
  ["李娟上个钥做了多少", call("query_piece_records", { employee: "李娟", period: "last_month" })],
  ["衣服起皱怎么办", call("initiate_session", { user_query: "衣服起皱怎么办" })],
  ["裤腰的地方老是跳针", call("initiate_session", { user_query: "裤腰的地方老是跳针" })],
  ["次品怎么办", call("initiate_session", { user_query: "次品怎么办" })],
  ["搜索知识库：新建订单", call("knowledge_search", { query: "新建订单" })],
  ["你好", says("你好！还可以这样问我：")],
  ["谢谢", says("不客气！")],
  ["确认", says("我不能替你确认")],
  ["张三这个月比上个月多做了多少件", call("query_piece_records", { employee: "张三", period: "this_month" })],
  ["这个月比上个月多做了多少", call("query_piece_records", { period: "this_month" })],
  ["How many pieces did Zhang San do this month", call("query_piece_records", { employee: "Zhang San", period: "this_month" })],
  [
    "Record 50 pieces of collar for Zhang San today",
    call("prepare_piece_record", { employee: "Zhang San", process: "collar", quantity: 50, work_date: "2026-11-26" }),
  ],
  ["open orders", call("query_orders", { status: "open" })],
  // Answers to the question on the card (which of two open A01 orders): the write prepared again.
  ["2026-001", call("prepare_piece_record", { ...COLLAR, order: FIRST_A01 }), CARD],
  ["记到2026-001", call("prepare_piece_record", { ...COLLAR, order: FIRST_A01 }), CARD],
  ["就2026-901吧", call("prepare_piece_record", { ...COLLAR, order: SECOND_A01.id }), CARD],
  ["优衣美那张", call("prepare_piece_record", { ...COLLAR, order: FIRST_A01 }), CARD],
  ["海澜的", call("prepare_piece_record", { ...COLLAR, order: SECOND_A01.id }), CARD],
  ["第一个", call("prepare_piece_record", { ...COLLAR, order: FIRST_A01 }), CARD],
  ["第2个", call("prepare_piece_record", { ...COLLAR, order: SECOND_A01.id }), CARD],
  ["后面那个", call("prepare_piece_record", { ...COLLAR, order: SECOND_A01.id }), CARD],
  ["头一张", call("prepare_piece_record", { ...COLLAR, order: FIRST_A01 }), CARD],
  // A question after the card is a question again.
  ["2026-001做到多少件了", call("query_orders", { order: "2026-001" }), CARD],
  ["张三这个月做了多少件", call("query_piece_records", { employee: "张三", period: "this_month" }), CARD],
  // Follow-ups: only the new subject is said; the question before is asked again with it swapped.
  ["那海澜的订单呢", call("query_orders", { status: "open", customer_contains: "海澜" }), ["哪些订单还没完成"]],
  [
    "那海澜的呢",
    call("query_orders", { status: "open", due_to: "2026-12-03", customer_contains: "海澜" }),
    ["有哪些订单快到期了"],
  ],
  ["优衣美的呢", call("query_orders", { customer_contains: "优衣美" }), ["海澜的订单"]],
  ["待生产的呢", call("query_orders", { status: "pending" }), ["生产中的订单有哪些"]],
  ["2026-002呢", call("query_orders", { order: "2026-002" }), ["2026-001做到多少件了"]],
  ["李娟呢", call("query_piece_records", { employee: "李娟", period: "this_month" }), ["张三这个月做了多少件"]],
  ["那李娟呢？", call("query_piece_records", { employee: "李娟", period: "this_month" }), ["张三这个月做了多少件"]],
  ["上个月呢", call("query_piece_records", { employee: "张三", period: "last_month" }), ["张三这个月做了多少件"]],
  ["昨天呢", call("query_piece_records", { employee: "李娟", period: "yesterday" }), ["李娟今天做了几件"]],
  ["那锁边呢", call("query_piece_records", { process: "锁边", period: "this_month" }), ["这个月上领子做了多少件"]],
  ["那李娟的呢", call("query_payroll", { employee: "李娟", month: "2026-11" }), ["张三这个月的工资"]],
  ["锁边呢", call("query_processes", { name_contains: "锁边" }), ["上领子的单价是多少"]],
  ["那张三的工资呢", call("query_payroll", { employee: "张三" }), ["张三这个月做了多少件"]],
  ["李娟上个月呢", call("query_piece_records", { employee: "李娟", period: "last_month" }), ["张三这个月做了多少件"]],
];

const BOSS_SAYS = { role: "system" as const, content: "You are talking with 王老板 (role: boss)." };
const user = (text: string): LanguageModelV4Prompt[number] => ({ role: "user", content: [{ type: "text", text }] });
const textOf = (content: { type: string; text?: string }[]) => content.map((c) => (c.type === "text" ? c.text : "")).join("");

/** One step of the model: the tool it calls, or what it says. */
async function step(prompt: LanguageModelV4Prompt, tools = TOOLS): Promise<Expected> {
  const { content } = await model.doGenerate({ prompt, tools });
  const toolCall = content.find((c) => c.type === "tool-call");
  if (toolCall) return { tool: toolCall.toolName, input: JSON.parse(toolCall.input) };
  return { says: [textOf(content)] };
}

/**
 * The conversation after the model's turn on the last message: its tool run for real as `caller`
 * (a prepared write as the chat gives it to the model), then the reply it writes from the result.
 */
async function answered(prompt: LanguageModelV4Prompt, caller: UserContext = users.boss): Promise<LanguageModelV4Prompt> {
  const first = await step(prompt);
  if (!("tool" in first)) return [...prompt, { role: "assistant", content: [{ type: "text", text: first.says[0] ?? "" }] }];
  const withResult = await withToolResult(prompt, first, caller);
  // A comparison asks a second period before it answers.
  const next = await step(withResult);
  if ("tool" in next) return answered(withResult, caller);
  return [...withResult, { role: "assistant", content: [{ type: "text", text: next.says[0] ?? "" }] }];
}

async function withToolResult(
  prompt: LanguageModelV4Prompt,
  first: { tool: string; input: Record<string, unknown> },
  caller: UserContext,
): Promise<LanguageModelV4Prompt> {
  const tool = WEFT_TOOLS.find((t) => t.name === first.tool);
  if (!tool) throw new Error(`no tool ${first.tool}`);
  const outcome = await runTool(tool, testContext(caller), first.input);
  const value = !outcome.ok
    ? outcome.message
    : outcome.kind === "pending_action"
      ? pendingForModel(outcome.action)
      : outcome.structured;
  const id = `call-${prompt.length}`;
  return [
    ...prompt,
    { role: "assistant", content: [{ type: "tool-call", toolCallId: id, toolName: first.tool, input: first.input }] },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: id,
          toolName: first.tool,
          output: outcome.ok ? { type: "json", value: value as never } : { type: "error-text", value: String(value) },
        },
      ],
    },
  ];
}

async function history(before: string[] = []): Promise<LanguageModelV4Prompt> {
  let prompt: LanguageModelV4Prompt = [BOSS_SAYS];
  for (const text of before) prompt = await answered([...prompt, user(text)]);
  return prompt;
}

function lastReply(prompt: LanguageModelV4Prompt): string {
  const last = prompt[prompt.length - 1];
  return last?.role === "assistant" ? textOf(last.content as { type: string; text?: string }[]) : "";
}

beforeAll(async () => {
  await dbOf("t-jinxiu")
    .prepare(
      "INSERT INTO orders (id, tenant_id, order_no, customer, style_id, quantity, due_date, status) VALUES (?1, 't-jinxiu', ?2, ?3, 'st-jx-a01', 800, '2027-02-01', 'pending')",
    )
    .bind(SECOND_A01.id, SECOND_A01.no, SECOND_A01.customer)
    .run();
});

afterAll(async () => {
  await dbOf("t-jinxiu").prepare("DELETE FROM orders WHERE id = ?1").bind(SECOND_A01.id).run();
});

// How a reply's first sentence names a period: 本月（2026-11-01 至 11-30）, 全部记录, 不限日期, a month, dates.
const PERIOD = /本月|上个月|今天|昨天|本周|上周|全部记录|不限日期|当前|\d{4}-\d{2}|未来 \d+ 天|All records|As of today/;

// What each argument a business question filtered on must look like in the reply's first sentence.
function filterWords(input: Record<string, unknown>): string[] {
  const words: string[] = [];
  for (const field of ["employee", "process", "customer_contains", "order", "style"]) {
    if (typeof input[field] === "string") words.push(input[field] as string);
  }
  // "未完成" or "还没完成" in Chinese, "open" in English.
  const status = { open: "完成|open", pending: "待生产", in_production: "生产中", completed: "已完成", cancelled: "已取消" };
  if (typeof input.status === "string" && Object.hasOwn(status, input.status))
    words.push(status[input.status as keyof typeof status]);
  return words;
}

describe("sentences as workshop people type them, read by the offline model", () => {
  it("holds at least 150 sentences", () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(150);
  });

  it.each(TABLE)("%s", async (text, expected, before) => {
    const prompt = [...(await history(before)), user(text)];
    const got = await step(prompt);
    if ("tool" in expected) {
      expect(got).toEqual(expected);
      return;
    }
    expect(got).not.toHaveProperty("tool");
    const reply = "says" in got ? (got.says[0] ?? "") : "";
    for (const word of expected.says) expect(reply).toContain(word);
    // A refusal is one sentence, with no records beside it.
    if (expected.refusal) {
      expect(reply.split(/[。.]/).filter((s) => s.trim()).length).toBe(1);
      expect(reply).not.toContain("|");
    }
  });
});

const BUSINESS = TABLE.filter(
  (row): row is [string, { tool: string; input: Record<string, unknown> }, string[]?] =>
    "tool" in row[1] && row[1].tool.startsWith("query_") && !/Zhang San/.test(row[0]),
);

describe("every answer to a business question says what it looked at first", () => {
  it.each(BUSINESS)("%s", async (text, expected, before) => {
    const prompt = await answered([...(await history(before)), user(text)]);
    const first = lastReply(prompt).split("\n")[0] ?? "";
    expect(first).toMatch(PERIOD);
    for (const word of filterWords(expected.input)) expect(first).toMatch(new RegExp(word));
    // A word read as another is said before the figures.
    if (/越|悦|阅|添|做天|州|工姿|见|定单|钥/.test(text)) expect(first).toMatch(/^（把“/);
  });
});

describe("what a boss saw go wrong, asked again", () => {
  it("lists only open orders for 还没完成, and only 海澜's when asked after", async () => {
    const open = await answered([BOSS_SAYS, user("哪些订单还没完成")]);
    const table = lastReply(open);
    expect(table.split("\n")[0]).toContain("未完成（待生产、生产中）");
    expect(table).not.toMatch(/已完成|已取消/);
    expect(table).toContain("2026-001");
    const hailan = lastReply(await answered([...open, user("那海澜的订单呢")]));
    const rows = hailan.split("\n").filter((line) => /^\| 2026-/.test(line));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toContain("海澜");
    expect(hailan).not.toMatch(/已完成|已取消/);
  });

  it("says a typo was read as this month before the figure, and names the month", async () => {
    const reply = lastReply(await answered([BOSS_SAYS, user("张三这个越做了多少件")]));
    expect(reply.split("\n")[0]).toMatch(
      /^（把“这个越”当作“这个月”）员工 张三 \(工号 001\)，本月（2026-11-01 至 11-30，进行中）：共 [\d,]+ 件/,
    );
  });

  it("asks which period when the word cannot be read, then answers for the one given", async () => {
    const asked = await answered([BOSS_SAYS, user("张三这个鈅做了多少件")]);
    expect(lastReply(asked)).toContain("“这个鈅”我没看懂");
    expect(lastReply(asked)).not.toMatch(/\d+ 件/);
    expect(await step([...asked, user("这个月")])).toEqual(
      call("query_piece_records", { employee: "张三", period: "this_month" }),
    );
  });

  it("answers a card's question by its label, which a tap sends, with a card that can be confirmed", async () => {
    const card = await answered([BOSS_SAYS, user("给张三记50件上领子")]);
    const reply = lastReply(card);
    expect(reply).toContain("记到哪张订单？");
    expect(reply).toContain("点一个选项，或者在对话里直接回复");
    const tool = card.find((m) => m.role === "tool");
    const part = tool?.role === "tool" ? tool.content[0] : undefined;
    const output =
      part?.type === "tool-result" && part.output.type === "json"
        ? (part.output.value as { ambiguities: { candidates: { id: string; label: string }[] }[] })
        : null;
    const candidates = output?.ambiguities[0]?.candidates ?? [];
    expect(candidates.map((c) => c.id)).toEqual([FIRST_A01, SECOND_A01.id]);
    const tapped = await answered([...card, user(candidates[1]?.label ?? "")]);
    expect(lastReply(tapped)).toMatch(/^已准备好，请核对上面的卡片。/);
    const prepared = tapped.filter((m) => m.role === "tool").at(-1);
    const again = prepared?.role === "tool" ? prepared.content[0] : undefined;
    const value =
      again?.type === "tool-result" && again.output.type === "json"
        ? (again.output.value as { ambiguities: unknown[]; preview: { label: string; value: string }[] })
        : null;
    expect(value?.ambiguities).toEqual([]);
    expect(value?.preview.find((row) => row.label === "订单")?.value).toContain(SECOND_A01.no);
  });

  it("refuses a change to pay in one sentence that names who can, and shows no payslip", async () => {
    const staff = { role: "system" as const, content: "You are talking with 李娟 (role: staff)." };
    // Staff are offered only the tools their role may use: not the boss's business changes.
    const staffTools = TOOLS.filter((tool) => tool.name !== "prepare_business_change");
    const said = await step([staff, user("帮我把张三的工资改成10000")], staffTools);
    expect(said).toEqual({
      says: [
        "Weft 不能修改工资（工资是按计件记录、补贴和扣款现算的，没有可以直接改的工资数），对话里也没有这样的功能；要修改，请找老板。",
      ],
    });
  });
});

describe("a choice of an order confirmed in Weft", () => {
  it("prepares the write again with that order's id, which the tool takes", async () => {
    const id = `ord-${"a".repeat(64)}`;
    await dbOf("t-jinxiu")
      .prepare(
        "INSERT INTO orders (id, tenant_id, order_no, customer, style_id, quantity, due_date, status) VALUES (?1, 't-jinxiu', '2026-902', '太平鸟', 'st-jx-a01', 100, '2027-03-01', 'pending')",
      )
      .bind(id)
      .run();
    try {
      const card = await answered([BOSS_SAYS, user("给张三记50件上领子")]);
      const chosen = await answered([...card, user("太平鸟那张")]);
      expect(chosen.filter((m) => m.role === "assistant").at(-2)?.content).toEqual([
        expect.objectContaining({ type: "tool-call", input: { ...COLLAR, order: id } }),
      ]);
      expect(lastReply(chosen)).toMatch(/^已准备好，请核对上面的卡片。/);
    } finally {
      await dbOf("t-jinxiu").prepare("DELETE FROM orders WHERE id = ?1").bind(id).run();
    }
  });
});

describe("a card that asks which process", () => {
  it("takes the tapped 裁剪 of one style and asks nothing more about the process", async () => {
    const card = await answered([BOSS_SAYS, user("给刘强记60件裁剪")]);
    expect(lastReply(card)).toContain("是哪道工序？");
    const tool = card.find((m) => m.role === "tool");
    const part = tool?.role === "tool" ? tool.content[0] : undefined;
    const output =
      part?.type === "tool-result" && part.output.type === "json"
        ? (part.output.value as { ambiguities: { field: string; candidates: { id: string; label: string }[] }[] })
        : null;
    const asked = output?.ambiguities.find((a) => a.field === "process");
    expect(asked?.candidates.length).toBe(2);
    const label = asked?.candidates.find((c) => c.label.includes("A01"))?.label ?? "";
    const tapped = await answered([...card, user(label)]);
    // The process is settled; which of this file's two open A01 orders is the card's next question.
    const again = tapped.filter((m) => m.role === "tool").at(-1);
    const result = again?.role === "tool" ? again.content[0] : undefined;
    const open =
      result?.type === "tool-result" && result.output.type === "json"
        ? (result.output.value as { ambiguities: { field: string }[] }).ambiguities.map((a) => a.field)
        : null;
    expect(open).toEqual(["order"]);
  });
});
