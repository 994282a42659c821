import { CHOICE_LINES, DECIDE_LINES, ORDER_STATUS_WORDS, statusWord } from "../../status-words.ts";
import { EXTERNAL_TOOL_PREFIX } from "../../tools/tool-names.ts";
import type { Passage } from "../passages.ts";
import { extractiveAnswer } from "./answers.ts";
import { dueHeading, rangeWords } from "./due-dates.ts";
import { externalText } from "./external-tools.ts";
import { placedHeading } from "./placed-dates.ts";
import { refusalWords } from "./questions.ts";
import { type Cell, grouped, markdownTable } from "./tables.ts";
import { fieldLabel, listLabel, namesList, toolTitle } from "./tool-labels.ts";

const MAX_ITEMS = 10;
// Fields for programs, not for people: ids, paging, the clock the tools report, and what the lead
// line (the tool's summary) says already. `entered_by` is a login's id too; `overdue` is what a
// negative `days_left` says.
const HIDDEN =
  /(^|_)(id|ids|cursor|cents)$|^(today|time_zone|scope|has_login|entered_by|key|summary|period|filters|assumptions|overdue|processes)$/;

// The codes the tools answer with, in words: one table for every reply, so "active" never reaches a
// Chinese reader and 在职 never an English one.
const CODE_WORDS: Record<string, [zh: string, en: string]> = {
  active: ["在职", "active"],
  left: ["已离职", "left"],
  allowance: ["补贴", "allowance"],
  deduction: ["扣款", "deduction"],
  true: ["是", "yes"],
  false: ["否", "no"],
};

/** A code the tools answer with (a status, a kind, a yes or no), in the reply's language; other values as they are. */
export function codeWord(value: string, chinese: boolean): string {
  if (Object.hasOwn(ORDER_STATUS_WORDS, value)) return statusWord(ORDER_STATUS_WORDS, value, chinese ? "zh" : "en");
  const words = Object.hasOwn(CODE_WORDS, value) ? CODE_WORDS[value] : undefined;
  return words ? words[chinese ? 0 : 1] : value;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isRecord(value: unknown): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function scalar(value: Json): string | null {
  if (value === null || Array.isArray(value)) return null;
  if (typeof value !== "object") return String(value);
  // Money as the tools give it ({ cents, yuan }), and date ranges.
  if (typeof value.yuan === "string") return `¥${value.yuan}`;
  if (typeof value.from === "string" && typeof value.to === "string") return `${value.from}~${value.to}`;
  if (typeof value.name === "string") return value.name;
  return null;
}

// Chinese text takes the full-width comma; an English reply, the ASCII one.
function comma(chinese: boolean): string {
  return chinese ? "，" : ", ";
}

function fields(item: Record<string, Json>, chinese: boolean, toolName: string): string[] {
  const out: string[] = [];
  const label = (key: string) => fieldLabel(toolName, key, chinese);
  for (const [key, value] of Object.entries(item)) {
    if (HIDDEN.test(key)) continue;
    const raw = key === "percent" && typeof value === "number" ? `${value}%` : scalar(value);
    const shown =
      raw !== null && (key === "status" || key === "kind" || typeof value === "boolean") ? codeWord(raw, chinese) : raw;
    if (shown !== null && shown !== "") out.push(`${label(key)}: ${shown}`);
    else if (isRecord(value)) {
      const inner = fields(value, chinese, toolName);
      // One field inside (an order's number, a progress percentage) reads best as its value alone.
      const single = inner.length === 1 ? (inner[0] as string).slice((inner[0] as string).indexOf(": ") + 2) : null;
      out.push(`${label(key)}: ${single ?? inner.join(comma(chinese))}`);
    }
  }
  return out;
}

// What each kind of open choice asks a person, in place of the agent-facing message.
const ASKS_ZH = new Map([
  ["employee", "是哪位员工"],
  ["process", "是哪道工序"],
  ["order", "记到哪张订单"],
  ["style", "是哪个款式"],
]);

function pendingReply(output: Record<string, Json>, chinese: boolean, toolName: string): string {
  const summary = scalar(output.summary ?? null) ?? "";
  const open = Array.isArray(output.ambiguities) ? output.ambiguities.filter(isRecord) : [];
  if (chinese) {
    if (open.length === 0) {
      // The card above says what it is: the reply does not say it a second time.
      return `已准备好，请核对上面的卡片。\n\n${DECIDE_LINES.zh}`;
    }
    const asks = open.map((a) => {
      const choices = Array.isArray(a.candidates) ? a.candidates.filter(isRecord).map((c) => scalar(c.label ?? null)) : [];
      const ask = ASKS_ZH.get(String(a.field)) ?? scalar(a.message ?? null);
      return `- ${ask}？${choices.length ? `可选：${choices.join("；")}` : ""}`;
    });
    // What the write is, in the tool's own words (准备新建订单 → 新建订单): an order is not "登记".
    const what = toolTitle(toolName, true).replace(/^准备/, "");
    return `还不能${what}，先要确定：\n\n${asks.join("\n")}\n\n${CHOICE_LINES.zh}`;
  }
  const questions = open.map((a) => `- ${scalar(a.message ?? null) ?? scalar(a.field ?? null)}`);
  const next = open.length ? `Some things are still open:\n${questions.join("\n")}\n\n${CHOICE_LINES.en}` : DECIDE_LINES.en;
  return `Prepared: ${summary}\n\n${next}`;
}

// The chat shows a consultation step and its options under the tool call, the options as buttons
// (web/message-view.tsx): the reply only says what to do next, rather than the step a second time.
function consultationReply(output: Record<string, Json>, chinese: boolean): string {
  const options = Array.isArray(output.options) ? output.options.length : 0;
  if (output.is_complete === true || options === 0) {
    return chinese
      ? "这次咨询到这里结束。问题还在的话，可以再描述一次。"
      : "That ends this consultation. If the problem persists, describe it again.";
  }
  return chinese ? "请在上面选一项，也可以回复选项的序号。" : "Choose one of the options above, or reply with its number.";
}

function searchReply(question: string, output: Record<string, Json>, chinese: boolean): string {
  const results = Array.isArray(output.results) ? output.results.filter(isRecord) : [];
  const passages: Passage[] = results.map((r) => ({
    title: scalar(r.title ?? null) ?? "",
    heading: scalar(r.heading ?? null) ?? "",
    content: scalar(r.content ?? null) ?? "",
  }));
  return (
    extractiveAnswer(question, passages) ?? (chinese ? "知识库里没有找到相关内容。" : "Nothing in the knowledge bases matches.")
  );
}

// A row's cells by field: statuses in words, figures grouped (2,752; ¥1,691.60), a nested record
// by its name or its one value ("A01 男式衬衫", an order's number, a progress's percentage).
function cellsOf(item: Record<string, Json>, chinese: boolean): Map<string, Cell> {
  const cells = new Map<string, Cell>();
  for (const [key, value] of Object.entries(item)) {
    if (HIDDEN.test(key) || Array.isArray(value)) continue;
    if (typeof value === "number") {
      cells.set(key, { text: key === "percent" ? `${value}%` : grouped(String(value)), figure: true });
    } else if (isRecord(value) && typeof value.yuan === "string") {
      cells.set(key, { text: `¥${grouped(value.yuan)}`, figure: true });
    } else if (isRecord(value)) {
      const inner = [...cellsOf(value, chinese)].filter(([k]) => k !== "employee_no" || typeof value.name !== "string");
      const named = typeof value.code === "string" && typeof value.name === "string" ? `${value.code} ${value.name}` : null;
      const one = inner.length === 1 ? (inner[0]?.[1] as Cell) : null;
      cells.set(
        key,
        named ? { text: named, figure: false } : (one ?? { text: inner.map(([, c]) => c.text).join(" "), figure: false }),
      );
    } else if (value !== null) {
      const text =
        key === "status" || key === "kind" || typeof value === "boolean" ? codeWord(String(value), chinese) : String(value);
      cells.set(key, { text, figure: false });
    }
  }
  return cells;
}

// Totals under the columns they add up (a record's quantity is the totals' pieces); counts go in the label.
function totalRow(totals: Record<string, Json>, columns: Map<string, Cell>[], chinese: boolean, cut: boolean) {
  const has = (key: string) => columns.some((row) => row.has(key));
  const cells = new Map<string, Cell>();
  let count: number | null = null;
  for (const [key, cell] of cellsOf(totals, chinese)) {
    if (has(key)) cells.set(key, cell);
    else if (key === "pieces" && has("quantity")) cells.set("quantity", cell);
    else if (["records", "orders", "employees"].includes(key) && typeof totals[key] === "number") count = totals[key] as number;
  }
  const all = count !== null && cut ? (chinese ? `（全部 ${grouped(String(count))} 条）` : ` (all ${count})`) : "";
  return { label: `${chinese ? "合计" : "Total"}${all}`, cells };
}

function listReply(output: Record<string, Json>, chinese: boolean, toolName: string, lead: string | null = null): string {
  const lists = Object.entries(output).filter(
    (entry): entry is [string, Json[]] => Array.isArray(entry[1]) && !HIDDEN.test(entry[0]) && namesList(toolName, entry[0]),
  );
  const rest = Object.fromEntries(Object.entries(output).filter(([key, value]) => !Array.isArray(value) && key !== "totals"));
  const parts: string[] = lead ? [lead] : [];
  // A page of a longer list (`next_cursor`) or more rows than a reply shows: say only the first are
  // listed; the totals row covers every matching row and answers "how many".
  const partial = typeof output.next_cursor === "string";
  const totals = isRecord(output.totals) ? output.totals : null;
  let tables = 0;
  for (const [key, items] of lists) {
    if (items.length === 0) continue;
    const rows = items
      .slice(0, MAX_ITEMS)
      .map((item) =>
        isRecord(item)
          ? cellsOf(item, chinese)
          : new Map([["value", { text: scalar(item) ?? JSON.stringify(item), figure: false }]]),
      );
    const cut = partial || items.length > MAX_ITEMS;
    const name = listLabel(toolName, key, chinese);
    const head = cut
      ? chinese
        ? `${name}（只列出前 ${rows.length} 条）：`
        : `${name} (the first ${rows.length}):`
      : chinese
        ? `${name}（${items.length}）：`
        : `${name} (${items.length}):`;
    // The totals belong under the first list (the rows they add up), not under subtotals.
    const total = tables === 0 && totals ? totalRow(totals, rows, chinese, cut) : null;
    parts.push(`${head}\n\n${markdownTable(rows, (k) => fieldLabel(toolName, k, chinese), total)}`);
    tables++;
  }
  if (tables === 0 && lists.length > 0) {
    return lead ?? (chinese ? "没有找到符合条件的记录。" : "No matching records.");
  }
  if (tables === 0 && totals && !lead) parts.push(fields(totals, chinese, toolName).join(comma(chinese)));
  const others = fields(rest, chinese, toolName);
  if (others.length > 0 && !lead) parts.push(others.join(comma(chinese)));
  // One paragraph a line: Markdown runs single line breaks together.
  return parts.join("\n\n") || JSON.stringify(output);
}

// The one line above a table that says what it looked at and answers the question itself. In
// Chinese it is the tool's own summary (its period, filters and counts:
// "员工 张三 (工号 001)，本月（2026-11-01 至 11-30，进行中）：共 2,752 件，计 1,691.60 元（48 条记录）。");
// in English the figures of piece records and pay, with the period they cover.
function leadLine(toolName: string, input: unknown, output: Record<string, Json>, chinese: boolean): string | null {
  if (chinese) return isRecord(output.period) && typeof output.summary === "string" ? output.summary : null;
  const asked = isRecord(input) ? input : {};
  const totals = isRecord(output.totals) ? output.totals : null;
  if (!totals) return null;
  const yuan = (value: Json | undefined) => (isRecord(value) && typeof value.yuan === "string" ? `¥${grouped(value.yuan)}` : "");
  const own = output.scope === "own";
  if (toolName === "query_piece_records" && typeof totals.pieces === "number") {
    const who = typeof asked.employee === "string" ? asked.employee : own ? "You" : "The workshop";
    const period = isRecord(output.period) ? output.period : {};
    const range =
      typeof period.from === "string" && typeof period.to === "string" && typeof output.today === "string"
        ? rangeWords({ from: period.from, to: period.to }, output.today, false).when
        : "in all records (no period was given)";
    const process = typeof asked.process === "string" ? asked.process : "";
    const pieces = grouped(String(totals.pieces));
    return `${who} did ${pieces} pieces${process ? ` of ${process}` : ""} ${range}, worth ${yuan(totals.amount)}.`;
  }
  if (toolName === "query_payroll" && typeof output.month === "string") {
    const slips = Array.isArray(output.payslips) ? output.payslips.filter(isRecord) : [];
    const going = isRecord(output.period) && output.period.in_progress === true ? " (month in progress)" : "";
    const one = slips.length === 1 && isRecord(slips[0]?.employee) ? String(slips[0].employee.name) : null;
    if (one) return `${one}'s net pay for ${output.month}${going}: ${yuan(totals.net_pay)}.`;
    // A staff member's own payroll, with nothing in it yet: said as theirs, not as "0 people".
    if (output.scope === "own" && slips.length === 0)
      return `You have no pieces, allowances or deductions in ${output.month}${going}: net pay ${yuan(totals.net_pay)}.`;
    const people = typeof totals.employees === "number" ? totals.employees : slips.length;
    return `${output.month}${going}: ${people} people, net pay in all ${yuan(totals.net_pay)}.`;
  }
  return englishLooked(asked, output);
}

// What any other answer looked at, in English: its period and the filters it was asked with
// ("All records (no period was given), status open:"), so no figure goes without them.
function englishLooked(asked: Record<string, unknown>, output: Record<string, Json>): string | null {
  const period = isRecord(output.period) ? output.period : null;
  if (!period) return null;
  const from = typeof period.from === "string" ? period.from : null;
  const to = typeof period.to === "string" ? period.to : null;
  const today = typeof output.today === "string" ? output.today : "";
  const of = period.of === "due_date" ? "due " : period.of === "created_on" ? "placed " : "";
  const when =
    period.name === "all"
      ? "All records (no period was given)"
      : period.name === "current"
        ? "As of today"
        : from && to
          ? `${of}${rangeWords({ from, to }, today, false).when}`
          : from
            ? `${of}from ${from}`
            : `${of}up to ${to}`;
  const filters = Object.entries(asked)
    .filter(
      ([field, value]) =>
        typeof value === "string" && !/^(?:due|created|date)_(?:from|to)$|^period$|^month$|^cursor$/.test(field),
    )
    .map(([field, value]) =>
      field === "status"
        ? `status ${value === "open" ? "open (pending or in production)" : statusWord(ORDER_STATUS_WORDS, String(value), "en")}`
        : `${field.replace(/_contains$/, "").replaceAll("_", " ")} ${value}`,
    );
  const head = `${when.charAt(0).toUpperCase()}${when.slice(1)}${filters.length ? `, ${filters.join(", ")}` : ""}`;
  const counted = isRecord(output.totals)
    ? Object.entries(output.totals)
        .filter(([, value]) => typeof value === "number")
        .map(([key, value]) => `${grouped(String(value))} ${key.replaceAll("_", " ")}`)
    : [];
  return `${head}: ${counted.length ? `${counted.join(", ")}.` : ""}`.trim();
}

// The days a call filtered on, under `from` and `to` names: the due dates or the days placed.
function rangeOf(input: Record<string, Json>, from: string, to: string): { from: string; to: string } | null {
  const start = input[from];
  const end = input[to];
  return typeof start === "string" && typeof end === "string" ? { from: start, to: end } : null;
}

// Orders asked for by due date ("本月的订单") lead with the dates they are due in: the tool lists
// by due date, and "this month's orders" could be read as the orders created this month. Orders
// asked for by the day they were placed ("本月新增的订单") lead with those days instead.
function ordersReply(input: unknown, output: Record<string, Json>, chinese: boolean): string {
  // Without dates of its own to head the list, it leads with what the tool looked at.
  const led = listReply(output, chinese, "query_orders", leadLine("query_orders", input, output, chinese));
  const list = listReply(output, chinese, "query_orders");
  if (!isRecord(input) || typeof output.today !== "string") return led;
  if (input.status === "open" && typeof input.due_to === "string" && input.due_from === undefined) {
    return dueSoonReply(input.due_to, output, output.today, chinese);
  }
  const placed = rangeOf(input, "created_from", "created_to");
  const due = rangeOf(input, "due_from", "due_to");
  const range = placed ?? due;
  if (!range) return led;
  const found = Array.isArray(output.orders) && output.orders.length > 0;
  const open = input.status === "open";
  const used = placed ? ["created_from", "created_to"] : ["due_from", "due_to", ...(open ? ["status"] : [])];
  const filtered = Object.keys(input).some((key) => !used.includes(key));
  const options = { chinese, found, filtered, open };
  const heading = placed ? placedHeading(range, output.today, options) : dueHeading(range, output.today, options);
  return found ? `${heading}\n\n${list}` : heading;
}

// Open orders due by a day ("快到期的"): those due from today on, soonest first, and those already
// past their due date listed apart, as they need a word with the customer rather than a push.
function dueSoonReply(dueTo: string, output: Record<string, Json>, today: string, chinese: boolean): string {
  const all = Array.isArray(output.orders) ? output.orders.filter(isRecord) : [];
  const due = (o: Record<string, Json>) => String(o.due_date ?? "");
  const soon = all.filter((o) => due(o) >= today).sort((a, b) => due(a).localeCompare(due(b)));
  const late = all.filter((o) => due(o) < today).sort((a, b) => due(a).localeCompare(due(b)));
  const days = Math.round((Date.parse(dueTo) - Date.parse(today)) / 86_400_000);
  const list = (orders: Record<string, Json>[]) => listReply({ orders, next_cursor: null }, chinese, "query_orders");
  // The filters besides "open" (a customer, a style, an order), as the tool applied them.
  const applied = isRecord(output.filters) ? output.filters : {};
  const named = Object.entries(applied)
    .filter(([field, value]) => field !== "status" && typeof value === "string")
    .map(
      ([field, value]) => `${fieldLabel("query_orders", field === "customer_contains" ? "customer" : field, chinese)} ${value}`,
    );
  const whose = named.length ? (chinese ? `（${named.join("、")}）` : ` (${named.join(", ")})`) : "";
  const parts = chinese
    ? [
        soon.length
          ? `未来 ${days} 天内（${today} 至 ${dueTo}）要交的未完成订单${whose}，最近的在前：\n\n${list(soon)}`
          : `未来 ${days} 天内（${today} 至 ${dueTo}）没有要交的未完成订单${whose}。`,
      ]
    : [
        soon.length
          ? `Open orders${whose} due in the next ${days} days (${today} to ${dueTo}), soonest first:\n\n${list(soon)}`
          : `No open orders${whose} are due in the next ${days} days (${today} to ${dueTo}).`,
      ];
  if (late.length)
    parts.push(chinese ? `已经过了交期、还没完成的：\n\n${list(late)}` : `Past their due date and still open:\n\n${list(late)}`);
  return parts.join("\n\n");
}

/**
 * How the offline model puts a tool's result into words: a prepared write points at its confirm
 * card, a consultation step lists its options, a search answers extractively, a list shows its
 * rows (orders asked for by due date under the dates they cover, from the call's `input`), and an
 * error says what went wrong.
 */
export function toolReply({
  toolName,
  input,
  output,
  isError,
  question,
  chinese,
}: {
  toolName: string;
  input?: unknown;
  output: unknown;
  isError: boolean;
  question: string;
  chinese: boolean;
}): string {
  // Tool errors are written for agents, in English: a person gets them in their own words.
  if (isError) return refusalWords(typeof output === "string" ? output : JSON.stringify(output), chinese);
  // An external tool's own words, as its server gave them.
  const external = toolName.startsWith(EXTERNAL_TOOL_PREFIX) ? externalText(output) : null;
  if (external) return external;
  if (!isRecord(output)) return String(output);
  // A prepared write: the pending action's wire shape.
  if (output.status === "pending" && typeof output.action_id === "string") return pendingReply(output, chinese, toolName);
  if (output.status === "needs_input") {
    return chinese
      ? "这个工具需要的参数我没法从这句话里读全：请在上面的表单里填好，再点“调用”。"
      : "I could not read all the arguments this tool needs from your message: fill them in the form above, then press Call.";
  }
  if (typeof output.session_id === "string" && typeof output.response === "string") return consultationReply(output, chinese);
  if (toolName === "knowledge_search") return searchReply(question, output, chinese);
  if (toolName === "query_orders") return ordersReply(input, output, chinese);
  return listReply(output, chinese, toolName, leadLine(toolName, input, output, chinese));
}
