import type { BothLanguages } from "../shapes.ts";
import { OPEN_ORDERS_WORDS, ORDER_STATUS_WORDS } from "../status-words.ts";
import type { ChangeSubjectName } from "./changes.ts";
import type { IconName } from "./tool-icons.ts";

/**
 * What a tool is called and what its fields and results are called, in both languages: part of
 * its definition, so every face reads them from the tool (MCP its English title and icon; the
 * chat's tool cards, the confirm card and page through `GET /api/chat/tools`; the offline model
 * its labels and what it offers) and no face keeps a list keyed by tool name.
 */
export interface ToolWords {
  title: BothLanguages;
  icon: IconName;
  /** Input fields and the coded values they take (`this_month`, `open`), for a call's line on its card. */
  fields?: Record<string, BothLanguages>;
  /** Fields of the result (and of what a confirmed write reports), for table headings and a card's outcome. */
  results?: Record<string, BothLanguages>;
  /** The result's lists, for a table's title and a card's count ("计件记录 10"). */
  lists?: Record<string, BothLanguages>;
  /**
   * What the offline model offers when it cannot answer: the capability with an example, and for a
   * caller who sees only their own records (staff) the example said of themselves.
   */
  offer?: BothLanguages & { own?: BothLanguages };
  /**
   * What the tool changes of what a workshop keeps (`src/tools/changes.ts`: `unit_price`, `order`):
   * a request to change one of these goes to it, and one that no offered tool changes is refused in
   * a sentence that says who can.
   */
  changes?: readonly ChangeSubjectName[];
}

/** Words for a person in both languages. */
export function said(zh: string, en: string): BothLanguages {
  return { zh, en };
}

const w = said;

// The words many tools share, by the field's name: a tool picks those it has (`pick`) and adds its own.
const SHARED: Record<string, BothLanguages> = {
  employee: w("员工", "employee"),
  process: w("工序", "process"),
  order: w("订单", "order"),
  style: w("款式", "style"),
  customer: w("客户", "customer"),
  customer_contains: w("客户", "customer"),
  name_contains: w("名称", "name"),
  quantity: w("数量", "quantity"),
  status: w("状态", "status"),
  period: w("时间", "period"),
  month: w("月份", "month"),
  date_from: w("从", "from"),
  date_to: w("到", "to"),
  due_date: w("交期", "due date"),
  due_from: w("交期从", "due from"),
  due_to: w("交期到", "due to"),
  created_from: w("下单从", "placed from"),
  created_to: w("下单到", "placed to"),
  created_on: w("下单日期", "placed on"),
  work_date: w("日期", "date"),
  group_by: w("分组", "group by"),
  sort_by: w("排序", "sort by"),
  top: w("前几名", "top"),
  limit: w("每页条数", "rows"),
  with_records: w("附明细", "with records"),
  with_lines: w("附工序明细", "with lines"),
  today: w("今天", "today"),
  yesterday: w("昨天", "yesterday"),
  this_week: w("本周", "this week"),
  last_week: w("上周", "last week"),
  this_month: w("本月", "this month"),
  last_month: w("上个月", "last month"),
  date: w("日期", "date"),
  pieces: w("件数", "pieces"),
  amount: w("金额", "amount"),
  name: w("名称", "name"),
  net_pay: w("实发", "net pay"),
  employee_no: w("工号", "employee no."),
  order_no: w("订单号", "order no."),
  unit_price: w("单价", "unit price"),
  note: w("备注", "note"),
  records: w("条数", "records"),
  orders: w("订单数", "orders"),
  employees: w("人数", "people"),
  total: w("合计", "total"),
  totals: w("合计", "total"),
  label: w("分组", "group"),
  style_code: w("款号", "style code"),
  active: w("启用", "active"),
  left: w("已离职", "left"),
  open: w(OPEN_ORDERS_WORDS.zh, OPEN_ORDERS_WORDS.en),
  ...Object.fromEntries(Object.entries(ORDER_STATUS_WORDS).map(([code, said]) => [code, w(said.zh, said.en)])),
  query: w("查询", "query"),
  user_query: w("问题", "question"),
  summary: w("概要", "summary"),
};

/** The shared words of `names`, for a tool's `fields` or `results`. */
export function pick(...names: string[]): Record<string, BothLanguages> {
  const picked: Record<string, BothLanguages> = {};
  for (const name of names) {
    const words = SHARED[name];
    if (!words) throw new Error(`no shared words for '${name}'`);
    picked[name] = words;
  }
  return picked;
}
