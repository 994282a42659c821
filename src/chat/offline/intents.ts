import { addDays, type DateRange } from "../../business/local-time.ts";
import { type ChangeSubjectName, changeSubjectOf } from "../../tools/changes.ts";
import { chooseBusinessChange } from "./business-changes.ts";
import { type DateMention, findDate, isFuture } from "./dates.ts";
import type { Decline } from "./declines.ts";
import { dueRange } from "./due-dates.ts";
import {
  findCustomer,
  findDueDate,
  findOrderCustomer,
  findOrderNo,
  findOrderStatus,
  findOrderStyle,
  findPersonName,
  findProcess,
  findProcessBeforeCount,
  findStyle,
} from "./entities.ts";
import { findQuantity } from "./numbers.ts";
import { placedRange } from "./placed-dates.ts";

/** A tool the offline model would call, with every argument it could read from the request. */
export interface ToolChoice {
  toolName: string;
  /**
   * Candidate arguments under each name a tool might use for them (`employee` and
   * `employee_name`, say); the model keeps only those the offered tool's schema declares.
   */
  args: Record<string, unknown>;
}

/** One step in a consultation the user is in: the session and the options they may pick. */
export interface OpenConsultation {
  sessionId: string;
  options: { id: string; description: string }[];
}

/** The date arguments of a query for a mention: a named period, a month, a range of days or one day. */
export function dateArgs(date: DateMention | null, dayNames: string[]): Record<string, unknown> {
  if (!date) return {};
  if (date.kind === "period") return { period: date.period };
  if (date.kind === "month") return { month: date.month };
  if (date.kind === "range") return { date_from: date.from, date_to: date.to };
  return Object.fromEntries([...dayNames.map((name) => [name, date.date]), ["date_from", date.date], ["date_to", date.date]]);
}

function named(value: string | number | null, ...names: string[]): Record<string, unknown> {
  return value === null ? {} : Object.fromEntries(names.map((name) => [name, value]));
}

const RECORD = /记录?|录入|登记|报(?:一下)?|记上|\b(?:record|log|enter|add)\b/i;
// A plain ask to record, though the count is still to come.
const RECORD_ASK = /帮我?(?:录入|登记|记)|^(?:录入|登记)|记一下|\brecord\b/i;
// 怎么办 starts one only beside a defect ("次品怎么办"): alone ("工资单错了怎么办") it asks how to
// handle something, which the passages answer, while a consultation would offer unrelated topics.
const CONSULT =
  /咨询|诊断|排查|(?:次品|质量问题|做坏了?)[^，。？?]*怎么办|毛病|缺陷|瑕疵|起皱|跳线|断线|跳针|色差|起球|\b(?:consult|diagnos\w*|troubleshoot\w*|defects?)\b/i;
const PAYROLL = /工资|薪水|薪资|工钱|计件工资|[挣赚]了?多少|拿了?多少钱|能拿多少|收入|\b(?:payroll|wages?|salar(?:y|ies)|pay)\b/i;
const PIECES = /计件|件数|产量|[做干]了多少|[做干]了几|多少件|几件|记录|\b(?:pieces?|piece records?|output)\b/i;
// "下订单" places one; "查一下订单" and "看下订单" only look.
const NEW_ORDER =
  /(?:新建|新增|创建|(?<![一看查])下)(?:一个|一张|个)?订单|(?<![新创])[建开](?:一个|一张|个)订单|\b(?:create|new|place)\b.*\border\b/i;
const ORDERS = /订单|单子|交期|\borders?\b/i;
// 上领子的改价记录, 单价历史: the prices a process had and from which day, not only today's.
const PRICE_HISTORY = /[改调]价(?:的)?(?:记录|历史)|单价(?:的)?(?:历史|变化|修改记录|调整记录)|价格历史|以前的单价/;
const PROCESSES = /工序|单价|工价|多少钱一件|一件多少钱|\b(?:process(?:es)?|unit prices?|rates?)\b/i;
const EMPLOYEES = /员工|工人|师傅|人员|花名册|工号|\b(?:employees?|workers?|staff)\b/i;
const SEARCH = /知识库|手册|文档|搜索|检索|\b(?:search|manual|docs?|documents?|knowledge base)\b/i;
const HOW_TO = /怎么|如何|怎样|步骤|流程|规定|制度|为什么|什么是|\b(?:how (?:do|to|can|should)|what is|why)\b/i;
// A yes-or-no question about the rules ("员工能看到别人的工资吗"), unless it politely asks for a lookup
// ("可以帮我查一下张三的工资吗", "能告诉我…吗") or names an order ("订单2026-001是否已完成"): those
// are about the records. A name alone does not decide it: "李娟可以登记计件吗" asks a rule.
const YES_NO = /(?:能|可以|会|允许)[^，。？?]*吗|是否|能不能|可不可以|会不会/;
const LOOKUP = /帮|查|给我|告诉我|列出|显示|看看|看一下/;
// Words that hold a cue's character without its sense, blanked out before the cues above and
// RECORD are read: 检查 and 查货 look nothing up for the user, nor does "can one 查看 …?" (unless
// softened, "查看一下"); 会计 and 开会 are not the "will" of "会…吗" (会计算 is); a 报价 or 报表 reports no pieces.
const LOOKALIKES = /[检抽审调核排复巡盘]查|查货|查[看询](?!一?下)|会计(?!算)|会[议员]|[开例晨早班聚约机社]会|报[价表告销名]/g;
// A change asked for ("改成900", "改一下交期", "修改数量", "删除订单", "change the due date"), also as a
// date moved or a figure set ("推迟一周", "往后推三天", "延期到", "调到0.5", "调成", "调高"); a change told
// of ("单价改了", "推迟了", "修改过", "删除的", "延期的订单"), asked about ("有没有调整", "是否推迟", "调整没有",
// "修改记录") or an improvement (改善, 改进) is not one. 提前 is left out: "提前完成" moves nothing.
const CHANGE =
  /(?<!(?:有没有|是否|有无)被?[修更变]?)(?:(?:修改|更改|更正|改正|调整|变更|改|删除|删掉|删了)(?![了过善进良革造变没吗的]|记录)|(?:推迟|延期|延后|推后|往后推|往后延|往前推|[推延挪]到|改期|调[到成为高低]|[涨降][到成])(?![了过没吗的]|记录|订单|单子))|\b(?:change|modify|edit|amend|reschedule|delete|postpone|push back)\b/i;
// An allowance or deduction given or taken ("给张三加200块全勤奖", "扣李娟50块"): no tool keeps one.
const ADJUSTING =
  /(?:加|扣|发|补)[^，。,]{0,10}?(?:全勤奖|奖金|补贴|餐补|罚款|扣款|块钱?|元)(?!.*(?:多少|几))|\b(?:add|give|deduct)\b.*\b(?:allowance|bonus|deduction)\b/i;
// What is to be handed over ("明天要交多少件", "下周交货的", "出货"): with a date, orders due then.
const DELIVERY = /要交|交货|出货|到期|\bdue\b/i;
// Orders placed ("本月新增的订单", "这周新下的", "今天有新的订单吗", "上周接了几个单子", "上个月下的订单",
// "orders placed this week"): with a date, orders placed then. 剩下的订单 are the ones left, not ones placed.
const PLACED =
  /新增|新下|新建|新接|新的?(?:订单|单子)|下了|接了|(?<![剩余留])[下接]的(?:订单|单子)|\b(?:placed|created|new|received)\b/i;
// Orders soon due ("快到期", "最近要交货", "马上要交的"): open ones due within the next week.
const DUE_SOON =
  /快到期|快要?到期|即将到期|马上(?:要)?(?:到期|交)|最近(?:要)?(?:交|到期)|快(?:要)?交(?:货|了)?|\bdue soon\b|\b(?:upcoming|soon)\b.*\bdue\b/i;
const SOON_DAYS = 7;
// What is still to deliver ("要交的订单"): orders done or cancelled have nothing left to hand over.
const TO_DELIVER = /要交|待交|还没交/;
// Subtotals asked for: "每个人做了多少", "各道工序", "每天".
const GROUPS: [RegExp, string][] = [
  [/每个人|每人|各人|每位|大家各|每个员工|各个员工|\beach (?:employee|worker)\b|\bper (?:employee|worker)\b/i, "employee"],
  [/每道工序|各道工序|每个工序|各工序|\beach process\b|\bper process\b/i, "process"],
  [/每张订单|各订单|每个订单|\beach order\b|\bper order\b/i, "order"],
  [/每天|每日|\beach day\b|\bper day\b|\bdaily\b/i, "date"],
];
// A how-to about one's own records with a date ("我三月的工资怎么算的"): the records answer it.
const OWN_RECORDS = /我|他|她|[张李王刘陈杨赵][^\s，。]{1,2}/;
// Orders counted as 单 ("今天接了几单", "这周下了多少单"), not a 单价 or 单位.
const ORDER_COUNT = /(?:几|多少)单(?![价位据元])/;
// One order to be created now ("今天新建一个订单", "create a new order"), not those placed before.
const CREATING = /(?:新建|新增|创建|下)(?:一个|一张|个)订单|\b(?:create|place|add)\b|\ban? (?:new )?order\b/i;

// What a change asks to alter, as the registry's tools name what they change (src/tools/changes.ts):
// an order named by its number is that order, whatever else the words hold.
function changed(text: string, cues: string): ChangeSubjectName | null {
  return findOrderNo(text) !== null ? "order" : changeSubjectOf(cues);
}

/**
 * The tool a request asks for, read from the user's words (Chinese or English); a `Decline` when
 * it asks for what no tool does (changing a saved order, records of a period still to come); or
 * `null` when none fits and the answer should come from retrieved passages. `today` is the
 * workshop's date. Never a confirmation: confirming a prepared write is the user's click.
 */
export function chooseTool(text: string, today: string, consultation: OpenConsultation | null): ToolChoice | Decline | null {
  // An option by its text (what the UI's buttons send), its id, or the number it was listed under.
  const numbered = /^\s*(\d{1,2})\s*[.、)）]?\s*$/.exec(text);
  const picked =
    consultation?.options.find((o) => o.description.trim() === text.trim() || o.id === text.trim()) ??
    (numbered ? consultation?.options[Number(numbered[1]) - 1] : undefined);
  if (consultation && picked) {
    return { toolName: "navigate_session", args: { session_id: consultation.sessionId, selected_option_id: picked.id } };
  }
  const businessChange = chooseBusinessChange(text, today);
  if (businessChange) return businessChange;
  const date = findDate(text, today);
  const employee = findPersonName(text);
  const process = findProcess(text);
  const quantity = findQuantity(text);
  const cues = text.replace(LOOKALIKES, " ");
  // A how-to question is answered from the passages retrieved for it, not from the records.
  const rulesQuestion = YES_NO.test(cues) && !LOOKUP.test(cues) && findOrderNo(text) === null;
  const recordsHow = date !== null && HOW_TO.test(text) && (PAYROLL.test(text) || PIECES.test(text)) && OWN_RECORDS.test(text);
  const asksHow = (HOW_TO.test(text) || rulesQuestion) && !/多少|几/.test(text) && !recordsHow;
  if (CHANGE.test(text) && !asksHow && !SEARCH.test(text) && !PRICE_HISTORY.test(text))
    return { decline: "change", what: changed(text, cues) };
  if (ADJUSTING.test(text) && !asksHow) return { decline: "change", what: "adjustment" };
  // Without a count, only a plain ask to record ("帮我录入计件") is one: the model asks for the rest.
  const recordAsked = quantity !== null || (RECORD_ASK.test(cues) && !asksHow && !/吗|？|\?|哪|多少|几/.test(text));
  if (recordAsked && RECORD.test(cues) && !PAYROLL.test(text)) {
    if (isFuture(date)) return { decline: "future", what: "record", period: date.period };
    const work = process ?? findProcessBeforeCount(text, employee);
    return {
      toolName: "prepare_piece_record",
      args: {
        ...named(employee, "employee", "employee_name"),
        ...named(work, "process", "process_name"),
        ...named(quantity, "quantity"),
        ...named(findOrderNo(text), "order", "order_no"),
        ...named(workDate(date, today), "work_date", "date"),
      },
    };
  }
  if (CONSULT.test(text)) return { toolName: "initiate_session", args: { user_query: text.trim() } };
  if (SEARCH.test(text)) return { toolName: "knowledge_search", args: { query: searchQuery(text) } };
  if (asksHow) return null;
  const employeeArgs = named(employee, "employee", "employee_name");
  if (PAYROLL.test(text)) {
    if (isFuture(date)) return { decline: "future", what: "payroll", period: date.period };
    return { toolName: "query_payroll", args: { ...employeeArgs, ...named(payrollMonth(date, today), "month") } };
  }
  const placed = placedOrders(text, date, today, quantity);
  if (placed) {
    return {
      toolName: "query_orders",
      args: { ...named(findOrderStatus(text), "status"), created_from: placed.from, created_to: placed.to },
    };
  }
  if (NEW_ORDER.test(text)) {
    return {
      toolName: "prepare_order",
      args: {
        ...named(findCustomer(text), "customer"),
        ...named(findStyle(text), "style"),
        ...named(quantity, "quantity"),
        ...named(findDueDate(text, today), "due_date"),
      },
    };
  }
  const delivery = date !== null && DELIVERY.test(text);
  const orderNo = findOrderNo(text);
  // "2026-015 做到多少件了" asks an order's progress, not anyone's pieces.
  const orderProgress = orderNo !== null && employee === null && !RECORD.test(cues);
  if (PIECES.test(text) && !ORDERS.test(text) && !delivery && !orderProgress && !PRICE_HISTORY.test(text)) {
    if (isFuture(date)) return { decline: "future", what: "pieces", period: date.period };
    const group = GROUPS.find(([words]) => words.test(text))?.[1];
    return {
      toolName: "query_piece_records",
      args: {
        ...employeeArgs,
        ...named(process, "process", "process_name"),
        ...named(orderNo, "order", "order_no"),
        ...dateArgs(date, []),
        ...named(group ?? null, "group_by"),
      },
    };
  }
  if (DUE_SOON.test(text) && !date) {
    // Overdue open orders are kept (no due_from): the reply lists them apart.
    return { toolName: "query_orders", args: { status: "open", due_to: addDays(today, SOON_DAYS) } };
  }
  if (ORDERS.test(text) || delivery || orderProgress) {
    const status = findOrderStatus(text) ?? (TO_DELIVER.test(text) ? "open" : null);
    // Orders are filtered by due date: "this month's orders" are those due this month. A date
    // beside one named order ("订单2026-001今天的进度") is not its due date.
    const due = date && orderNo === null ? dueRange(date, today) : null;
    return {
      toolName: "query_orders",
      args: {
        ...named(orderNo, "order", "order_no"),
        // "2026-003完成了吗" asks about that order, whatever its status: a filter would hide it.
        ...named(orderNo ? null : status, "status"),
        ...named(orderNo ? null : findOrderCustomer(text), "customer_contains"),
        ...named(orderNo ? null : findOrderStyle(text), "style"),
        ...(due ? { due_from: due.from, due_to: due.to } : {}),
      },
    };
  }
  if (PROCESSES.test(text) || PRICE_HISTORY.test(text)) {
    // "A01有哪些工序", "男式衬衫的工序": a style's processes, not a process named after it.
    const style = findStyle(text.replace(/的?工序.*$/, ""));
    const part = style && (process === null || process.includes(style)) ? null : process;
    return {
      toolName: "query_processes",
      args: {
        ...named(part, "name_contains", "process"),
        ...named(style, "style"),
        ...(PRICE_HISTORY.test(text) ? { with_history: true } : {}),
      },
    };
  }
  if (EMPLOYEES.test(text)) return { toolName: "query_employees", args: named(employee, "name_contains", "employee") };
  return null;
}

// The ask to search around what is to be found ("搜索知识库：", "在手册里查一下", "search the manual for"):
// left in, its words count against every passage, and the one asked for falls below the threshold.
const SEARCH_ASK_ZH =
  /^(?:请|帮我|帮忙)*(?:在|从)?(?:知识库|手册|文档)?(?:里面?|中)?(?:搜索|检索|搜一下|搜|查找|查一下|查)?(?:一下)?(?:知识库|手册|文档)?(?:里面?|中)?(?:的)?[\s:：,，]*/;
const SEARCH_ASK_EN =
  /^(?:please\s+)?(?:search|look up|find)(?:\s+(?:in\s+)?(?:the\s+)?(?:manual|docs?|documents?|knowledge base))?(?:\s+for)?\s+/i;

function searchQuery(text: string): string {
  const query = text.trim().replace(SEARCH_ASK_ZH, "").replace(SEARCH_ASK_EN, "").trim();
  return query || text.trim();
}

// The days of orders asked for by when they were placed, unless the words are about delivery (due
// words keep the due range), one named order, or creating one now (a count or quantity of it).
function placedOrders(text: string, date: DateMention | null, today: string, quantity: number | null): DateRange | null {
  if (!date || !(ORDERS.test(text) || ORDER_COUNT.test(text)) || !PLACED.test(text) || CREATING.test(text) || quantity !== null)
    return null;
  if (DELIVERY.test(text) || /交期/.test(text) || findOrderNo(text) !== null) return null;
  return placedRange(date, today);
}

// Payroll is by month: "这个月" and "上个月" name one as a period does, "三月" directly.
function payrollMonth(date: DateMention | null, today: string): string | null {
  if (date?.kind === "month") return date.month;
  if (date?.kind === "day") return date.date.slice(0, 7);
  if (date?.kind === "range") return date.from.slice(0, 7);
  if (date?.kind !== "period") return null;
  if (date.period === "last_month") {
    const d = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
    d.setUTCMonth(d.getUTCMonth() - 1);
    return d.toISOString().slice(0, 7);
  }
  return today.slice(0, 7);
}

// The day pieces were done: today, yesterday or a given day; a longer period names no one day.
function workDate(date: DateMention | null, today: string): string | null {
  if (date?.kind === "day") return date.date;
  if (date?.kind !== "period") return null;
  if (date.period === "today") return today;
  if (date.period !== "yesterday") return null;
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}
