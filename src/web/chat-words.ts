// The words only a conversation needs (tool titles, a tool card's field words, an empty chat's
// suggestions), apart from i18n.ts so the first load does not carry them. Statuses are in words
// shared with the server's replies (src/status-words.ts).
import { OPEN_ORDERS_WORDS, ORDER_STATUS_WORDS, type StatusLang } from "../status-words.ts";
import type { Lang } from "./i18n.ts";

// An order's statuses and the open filter, as a tool card's summary line says them.
function orderWords(lang: StatusLang): Record<string, string> {
  const words: Record<string, string> = { open: OPEN_ORDERS_WORDS[lang] };
  for (const [code, said] of Object.entries(ORDER_STATUS_WORDS)) words[code] = said[lang];
  return words;
}

const zh = {
  // The fields and values a tool card's summary line shows, in words.
  toolWords: {
    employee: "员工",
    process: "工序",
    period: "时间",
    month: "月份",
    quantity: "数量",
    order: "订单",
    status: "状态",
    customer: "客户",
    customer_contains: "客户",
    style: "款式",
    due_date: "交期",
    due_from: "交期从",
    due_to: "交期到",
    created_from: "下单从",
    created_to: "下单到",
    date_from: "从",
    date_to: "到",
    work_date: "日期",
    group_by: "分组",
    name_contains: "名称",
    query: "查询",
    user_query: "问题",
    orders: "订单",
    records: "计件记录",
    payslips: "工资单",
    processes: "工序",
    employees: "员工",
    groups: "分组",
    results: "段落",
    today: "今天",
    yesterday: "昨天",
    this_week: "本周",
    last_week: "上周",
    this_month: "本月",
    last_month: "上个月",
    ...orderWords("zh"),
  } as Record<string, string>,
  // Each of Weft's tools by what it does for a person; an external tool shows its own name.
  toolTitles: {
    knowledge_search: "搜索知识库",
    list_knowledge_bases: "列出知识库",
    initiate_session: "开始咨询",
    navigate_session: "咨询下一步",
    query_orders: "查订单",
    query_piece_records: "查计件",
    query_payroll: "查工资",
    query_processes: "查工序和单价",
    query_employees: "查员工",
    prepare_piece_record: "准备登记计件",
    prepare_order: "准备新建订单",
  } as Record<string, string>,
  needsInput: "待填写",
  suggestionsTitle: "可以这样问：",
  // What each role may ask: staff see and record only their own work.
  suggestions: {
    boss: ["张三这个月做了多少件", "快到期的订单", "帮我录入，张三今天做了50件领子", "怎么新建订单"],
    admin: ["张三这个月做了多少件", "快到期的订单", "怎么新建订单"],
    staff: ["我这个月做了多少件", "我这个月的工资", "我今天上领子80件，帮我登记", "计件登记错了怎么改"],
  } as Record<string, string[]>,
};

const en: typeof zh = {
  toolWords: {
    this_month: "this month",
    last_month: "last month",
    this_week: "this week",
    last_week: "last week",
    ...orderWords("en"),
  },
  toolTitles: {
    knowledge_search: "Search the knowledge bases",
    list_knowledge_bases: "List knowledge bases",
    initiate_session: "Start a consultation",
    navigate_session: "Next consultation step",
    query_orders: "Look up orders",
    query_piece_records: "Look up piece records",
    query_payroll: "Look up payroll",
    query_processes: "Look up processes and prices",
    query_employees: "Look up employees",
    prepare_piece_record: "Prepare a piece record",
    prepare_order: "Prepare a new order",
  },
  needsInput: "waiting for you",
  suggestionsTitle: "You could ask:",
  suggestions: {
    boss: ["how many pieces did Zhang San do this month", "orders due soon", "record 50 pieces of collar for Zhang San today"],
    admin: ["how many pieces did Zhang San do this month", "orders due soon"],
    staff: ["how many pieces did I do this month", "my payroll for this month", "record 80 pieces of collar for me today"],
  },
};

/** The conversation's words in a language. */
export function chatWords(lang: Lang): typeof zh {
  return lang === "zh" ? zh : en;
}
