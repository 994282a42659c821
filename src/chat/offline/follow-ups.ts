import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { orderStatusOfWords } from "../../status-words.ts";
import { FOLLOW_UP } from "./conversation.ts";
import { findOrderNo, findOrderStyle, findPersonName, findProcess, findStyle } from "./entities.ts";

/** A tool call as the reply before made it: what a follow-up repeats with its subject swapped. */
export interface LastCall {
  toolName: string;
  input: Record<string, unknown>;
}

type Message = LanguageModelV4Prompt[number];

// What a call's arguments are about, by kind: a follow-up that names one kind ("那海澜的呢", "李娟呢",
// "生产中的呢") swaps the arguments of that kind and keeps the others ("还没完成", "本月").
const GROUPS: Record<string, readonly string[]> = {
  who: ["employee", "employee_name", "customer", "customer_contains"],
  what: ["process", "process_name", "style", "order", "order_no", "name_contains"],
  when: ["period", "month", "date_from", "date_to", "due_from", "due_to", "created_from", "created_to", "work_date"],
  status: ["status"],
};
// Paging belongs to one answer, not to the question: a follow-up starts at the first page.
const NOT_CARRIED = new Set(["cursor", "limit"]);

function groupOf(field: string): string | null {
  for (const [group, fields] of Object.entries(GROUPS)) if (fields.includes(field)) return group;
  return null;
}

/** The last tool the reply right before `lastUser` called, with its arguments; `null` when it called none. */
export function lastCallBefore(prompt: LanguageModelV4Prompt, lastUser: number): LastCall | null {
  for (let i = lastUser - 1; i >= 0; i--) {
    const message = prompt[i] as Message;
    if (message.role === "user") return null;
    if (message.role !== "assistant") continue;
    for (const part of [...message.content].reverse()) {
      if (part.type !== "tool-call") continue;
      const input = typeof part.input === "string" ? (JSON.parse(part.input) as unknown) : part.input;
      if (typeof input === "object" && input !== null && !Array.isArray(input))
        return { toolName: part.toolName, input: input as Record<string, unknown> };
    }
  }
  return null;
}

/** Whether a message leans on the question before it ("那海澜的呢", "李娟呢", "what about March"). */
export function isFollowUp(text: string): boolean {
  return FOLLOW_UP.test(text.trim());
}

/**
 * A follow-up's arguments for the same tool as the question before: what it names replaces the
 * arguments of that kind, and the rest of the question carries over ("哪些订单还没完成" then
 * "那海澜的订单呢" are 海澜's open orders).
 */
export function carriedOver(last: LastCall, args: Record<string, unknown>): Record<string, unknown> {
  const named = new Set(Object.keys(args).map(groupOf));
  const kept = Object.entries(last.input).filter(
    ([field]) => !NOT_CARRIED.has(field) && !Object.hasOwn(args, field) && !named.has(groupOf(field)),
  );
  return { ...Object.fromEntries(kept), ...args };
}

// The subject alone: "那海澜的呢" → 海澜, "李娟呢" → 李娟, "换成A01" → A01.
const AROUND =
  /^(?:那么?|还有|再看看?|再查查?|换成|那换成|看看)+|(?:的(?:订单|单子|计件|工资|呢)?|订单|单子)?(?:呢|吗|嘛)?[？?。.!！\s]*$/g;

function subjectOf(text: string): string | null {
  const subject = text.trim().replace(AROUND, "").replace(AROUND, "").trim();
  return subject.length >= 1 && [...subject].length <= 16 ? subject : null;
}

// The first of `names` the tool takes.
function fieldFor(accepts: (field: string) => boolean, ...names: string[]): string | null {
  return names.find(accepts) ?? null;
}

/**
 * The question before, asked again of the new subject a follow-up names ("那海澜的呢" after "快到期的
 * 订单"): an order's number, a person, a process, a style, an order status, or else a customer (or a
 * name the tool looks for), set where the tool takes it, in place of the arguments of its kind.
 * `null` when the message is no follow-up or the tool takes no such subject.
 */
export function swappedCall(last: LastCall, text: string, accepts: (field: string) => boolean): LastCall | null {
  if (!isFollowUp(text)) return null;
  const subject = subjectOf(text);
  if (!subject) return null;
  const order = findOrderNo(subject);
  const status = orderStatusOfWords(subject);
  const person = findPersonName(subject);
  const process = findProcess(subject);
  const style = findOrderStyle(`${subject}的订单`) ?? (/^[A-Z]{1,3}-?\d{2,4}$/.test(subject) ? findStyle(subject) : null);
  // The subject's kind decides where it goes: a person is never taken for a customer.
  const kinds: [string | null, string[]][] = [
    [order, ["order", "order_no"]],
    [status, ["status"]],
    [person, ["employee", "employee_name"]],
    [process, ["process", "process_name", "name_contains"]],
    [style, ["style"]],
  ];
  const kind = kinds.find(([value]) => value !== null);
  const [value, names] = kind ?? [subject, ["customer_contains", "customer", "name_contains"]];
  const field = fieldFor(accepts, ...names);
  if (value === null || field === null) return null;
  return { toolName: last.toolName, input: carriedOver(last, { [field]: value }) };
}
