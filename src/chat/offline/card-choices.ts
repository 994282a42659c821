import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import type { Ambiguity } from "../../shapes.ts";
import { parseNumber } from "./numbers.ts";

/**
 * A prepared write whose card still asks something (which of two open orders, which 裁剪): the tool
 * that prepared it, what it was called with, and the questions with their candidates. A person
 * answers by tapping a candidate on the card (which sends its label) or with a few words ("2026-001",
 * "优衣美那张", "第一个", "海澜的"), and the write is prepared again with that choice.
 */
export interface OpenCard {
  toolName: string;
  input: Record<string, unknown>;
  ambiguities: Ambiguity[];
}

type Message = LanguageModelV4Prompt[number];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function ambiguitiesOf(output: unknown): Ambiguity[] {
  if (!isRecord(output) || output.status !== "pending" || !Array.isArray(output.ambiguities)) return [];
  return output.ambiguities.filter(
    (a): a is Ambiguity => isRecord(a) && typeof a.field === "string" && Array.isArray(a.candidates) && a.candidates.length > 0,
  );
}

/**
 * The card with an open question in the reply right before the person's message at `lastUser`,
 * if that reply prepared one: only an answer to the latest reply is read as a choice, so a question
 * asked later ("2026-001 做到多少件了") is a question again.
 */
export function openCardBefore(prompt: LanguageModelV4Prompt, lastUser: number): OpenCard | null {
  let start = lastUser - 1;
  while (start >= 0 && (prompt[start] as Message).role !== "user") start--;
  const reply = prompt.slice(start + 1, lastUser);
  const calls = new Map<string, { toolName: string; input: unknown }>();
  let found: OpenCard | null = null;
  for (const message of reply) {
    if (message.role === "assistant") {
      for (const part of message.content) {
        if (part.type === "tool-call") calls.set(part.toolCallId, { toolName: part.toolName, input: part.input });
      }
    }
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result" || part.output.type !== "json") continue;
      const ambiguities = ambiguitiesOf(part.output.value);
      const call = calls.get(part.toolCallId);
      if (ambiguities.length === 0 || !call) continue;
      const input = typeof call.input === "string" ? (JSON.parse(call.input) as unknown) : call.input;
      found = { toolName: part.toolName, input: isRecord(input) ? input : {}, ambiguities };
    }
  }
  return found;
}

// Words around a choice that do not tell the candidates apart: "记到", "选", "就", "那张", "的", "吧".
const FILLER =
  /^(?:那|就|选|要|用|是|记到|记在|算到|算在|登记到|放到|给|订单|单子)+|(?:那张|那个|那道|那一个|那一张|这张|这个|的|吧|呀|啊|呢|了|订单|单子|那位|这位|[。.！!？?\s,，])+$/g;

// "第一个", "第2张", "1", "头一个", "最后那个", "前面那个", "后面那个".
const ORDINAL =
  /^(?:第\s*([0-9一二三四五六七八九十两]+)\s*[个张道位条项种款]?|([0-9]{1,2})|([一二三四五六七八九十两])\s*[个张道位条]|头一?[个张道位]|最后一?[个张道位]|(前面|上面|后面|下面)(?:那|这)?[个张道位]?)/;

function ordinalOf(core: string, count: number): number | null {
  const match = ORDINAL.exec(core);
  if (!match || match[0].length < core.length) return null;
  const said = match[1] ?? match[2] ?? match[3];
  if (said) {
    const n = parseNumber(said);
    return n !== null && n >= 1 && n <= count ? n - 1 : null;
  }
  if (match[0].startsWith("头")) return 0;
  if (match[0].startsWith("最后")) return count - 1;
  // With two to choose from, "前面那个" is the first and "后面那个" the second.
  if (count === 2 && match[4]) return /前|上/.test(match[4]) ? 0 : 1;
  return null;
}

// The parts of a candidate's label a person may say alone: "2026-001", "优衣美", "A01", "男式衬衫", "0.30".
function tokensOf(label: string): string[] {
  return label
    .split(/[\s,，、;；()（）]+/)
    .map((t) => t.replace(/^(?:工号|交期)/, "").replace(/(?:元\/件|件)$/, ""))
    .filter((t) => [...t].length >= 2);
}

// How much of a candidate's label the words name: each part said whole, or the words a part of one ("衬衫").
function overlap(core: string, label: string): number {
  return tokensOf(label).filter((token) => core.includes(token) || token.includes(core)).length;
}

// What the words say besides the parts of a candidate's label they name.
function leftOver(core: string, label: string): string {
  let rest = core;
  for (const token of tokensOf(label)) {
    if (rest.includes(token)) rest = rest.replace(token, "");
    else if (token.includes(rest)) rest = "";
  }
  return rest.replace(/[\s,，。.!！?？]/g, "");
}

/**
 * The candidate a short answer picks, and the question it answers: its whole label or id (a tap on
 * the card sends the label), its place ("第一个", "后面那个"), or the parts of its label the words
 * name ("2026-001", "优衣美那张", "B02的", "海澜的"), when they name more of it than of any other.
 * `null` when the words pick none, or two alike ("A01" of two A01 orders).
 */
export function chosenCandidate(text: string, card: OpenCard): { field: string; id: string; label: string } | null {
  const said = text.trim();
  for (const { field, candidates } of card.ambiguities) {
    const exact = candidates.find((c) => c.label === said || c.id === said);
    if (exact) return { field, id: exact.id, label: exact.label };
  }
  const core = said.replace(FILLER, "");
  // A short answer only: a sentence of its own is a new request, and is read as one.
  if ([...core].length < 1 || [...core].length > 24) return null;
  for (const { field, candidates } of card.ambiguities) {
    const place = ordinalOf(core, candidates.length);
    const placed = place === null ? undefined : candidates[place];
    if (placed) return { field, id: placed.id, label: placed.label };
    if ([...core].length < 2) continue;
    const scores = candidates.map((c) => overlap(core, c.label));
    const best = Math.max(...scores);
    const leaders = candidates.filter((_, i) => scores[i] === best);
    const [only] = leaders;
    // Words beyond the candidate's ("2026-001 做到多少件了") make it a question of its own.
    if (best > 0 && leaders.length === 1 && only && [...leftOver(core, only.label)].length <= 2)
      return { field, id: only.id, label: only.label };
  }
  return null;
}
