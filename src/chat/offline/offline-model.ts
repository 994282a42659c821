import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { localDate } from "../../business/local-time.ts";
import { changeSubjectOf } from "../../tools/changes.ts";
import { readPassagesBlock } from "../passages.ts";
import { capabilities, closestPassage, extractiveAnswer, isChinese } from "./answers.ts";
import { chosenCandidate, openCardBefore } from "./card-choices.ts";
import { changeReply } from "./change-requests.ts";
import { comparisonReply } from "./comparison-replies.ts";
import { type Comparison, comparisonCalls, findComparison } from "./comparisons.ts";
import { currentRequest, type Turn } from "./conversation.ts";
import { findDate } from "./dates.ts";
import { declineReply } from "./declines.ts";
import { externalCall, formSubmission, needsForm, type OfferedExternal } from "./external-tools.ts";
import { isFollowUp, lastCallBefore, swappedCall } from "./follow-ups.ts";
import { greetingReply, roleIn } from "./greetings.ts";
import { chooseTool, type OpenConsultation } from "./intents.ts";
import { askFor } from "./questions.ts";
import { askAboutUnclear, readWords } from "./readings.ts";
import { toolReply } from "./tool-replies.ts";

/** The tool a boss's change of the workshop's own data is prepared with. */
const BUSINESS_CHANGE = "prepare_business_change";

/** The id the UI and `GET /api/chat/model` know the offline model by. */
export const OFFLINE_MODEL_ID = "offline";

const CHUNK = 12;
const USAGE: LanguageModelV4Usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

type Prompt = LanguageModelV4Prompt;

// A bare "yes, do it" typed into the chat: the write waits for the card's button, not for words.
const CONFIRM_WORDS = /^(?:确认|确定|确认写入|好的?|是的?|可以|对|没问题|confirm|yes|ok|okay|go ahead|do it)[\s。.!！]*$/i;

function textOf(message: Prompt[number]): string {
  if (typeof message.content === "string") return message.content;
  return message.content
    .map((part) => (part.type === "text" ? part.text : ""))
    .join("")
    .trim();
}

interface ToolResultSeen {
  toolName: string;
  toolCallId: string;
  output: unknown;
  isError: boolean;
}

function resultsIn(message: Prompt[number]): ToolResultSeen[] {
  if (message.role !== "tool") return [];
  const seen: ToolResultSeen[] = [];
  for (const part of message.content) {
    if (part.type !== "tool-result") continue;
    const { output, toolName, toolCallId } = part;
    if (output.type === "json" || output.type === "error-json") {
      seen.push({ toolName, toolCallId, output: output.value, isError: output.type === "error-json" });
    } else if (output.type === "text" || output.type === "error-text") {
      seen.push({ toolName, toolCallId, output: output.value, isError: output.type === "error-text" });
    }
  }
  return seen;
}

// The arguments each tool was called with, by call id: a reply may need to say what was asked
// (the due dates a list of orders covers).
function callInputs(messages: Prompt): Map<string, unknown> {
  const inputs = new Map<string, unknown>();
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const part of message.content) if (part.type === "tool-call") inputs.set(part.toolCallId, part.input);
  }
  return inputs;
}

// The consultation the user is in: the latest consultation step in the conversation, if open.
function openConsultation(prompt: Prompt, before: number): OpenConsultation | null {
  for (let i = before - 1; i >= 0; i--) {
    for (const result of resultsIn(prompt[i] as Prompt[number]).reverse()) {
      const out = result.output as { session_id?: unknown; options?: unknown; is_complete?: unknown } | null;
      if (result.isError || !out || typeof out.session_id !== "string" || !Array.isArray(out.options)) continue;
      if (out.is_complete === true) return null;
      return { sessionId: out.session_id, options: out.options as OpenConsultation["options"] };
    }
  }
  return null;
}

/** A tool the model is offered: the arguments it accepts, those it needs, and what each is. */
interface OfferedTool {
  accepts: Set<string>;
  required: string[];
  properties: Record<string, PropertySchema>;
}

type PropertySchema = OfferedExternal["properties"][string];

// A step that calls `toolName` with `input`, or asks for what its schema requires and `input` lacks.
function callOrAsk(toolName: string, tool: OfferedTool, input: Record<string, unknown>, chinese: boolean): Step {
  const missing = tool.required.filter((name) => !(name in input));
  if (missing.length === 0) return { kind: "tool", toolName, input };
  const describe = (field: string) => {
    const said = Object.hasOwn(tool.properties, field) ? tool.properties[field]?.description : undefined;
    return typeof said === "string" ? said : undefined;
  };
  return { kind: "text", text: askFor(missing, chinese, describe) };
}

// The earlier turns: each user message and the model's words after it.
function turnsBefore(prompt: Prompt, lastUser: number): Turn[] {
  const turns: Turn[] = [];
  for (const message of prompt.slice(0, lastUser)) {
    if (message.role === "user") turns.push({ user: textOf(message), reply: "" });
    else if (message.role === "assistant" && turns.length > 0) {
      const turn = turns[turns.length - 1] as Turn;
      turn.reply = `${turn.reply}${textOf(message)}`;
    }
  }
  return turns;
}

// A comparison of two periods takes three steps: the subject period's figures, the base period's,
// then both in one reply. `null` hands over to the ordinary path: a tool not offered, or an error
// (a staff member asking about a colleague), which is then said in words.
function compareStep(
  comparison: Comparison,
  today: string,
  results: ToolResultSeen[],
  offered: Map<string, OfferedTool>,
  chinese: boolean,
): Step | null {
  const calls = comparisonCalls(comparison, today);
  if ("decline" in calls) return results.length === 0 ? { kind: "text", text: declineReply(calls, chinese) } : null;
  const tool = offered.get(calls.toolName);
  if (!tool || results.some((r) => r.isError || r.toolName !== calls.toolName)) return null;
  const [subject, base] = results;
  if (subject && base)
    return { kind: "text", text: comparisonReply(comparison, calls.toolName, subject.output, base.output, chinese) };
  const input = calls.inputs[subject ? 1 : 0];
  return {
    kind: "tool",
    toolName: calls.toolName,
    input: Object.fromEntries(Object.entries(input).filter(([name]) => tool.accepts.has(name))),
  };
}

// What was read into the question, said before the answer: （把“这个越”当作“这个月”）.
function assumed(assumptions: string[], chinese: boolean): string {
  if (assumptions.length === 0) return "";
  return chinese ? `（${assumptions.join("，")}）` : `(Read as: ${assumptions.join(", ")}) `;
}

// A message that names only a new subject ("那海澜的呢", "李娟呢", "生产中的呢"): the question before
// asked again with that subject swapped in, whatever tool answered it. A period ("上个月呢") is
// carried by the request as a whole (conversation.ts), and a message that asks another tool of
// its own ("那张三的工资呢" after a piece count) is a new question.
function followUpCall(
  prompt: Prompt,
  lastUser: number,
  question: string,
  today: string,
  offered: Map<string, OfferedTool>,
): Step | null {
  if (!isFollowUp(question) || findDate(question, today)) return null;
  const last = lastCallBefore(prompt, lastUser);
  const tool = last ? offered.get(last.toolName) : undefined;
  if (!last || !tool) return null;
  const own = chooseTool(question, today, null);
  if (own && "toolName" in own && own.toolName !== last.toolName) return null;
  const swapped = swappedCall(last, question, (field) => tool.accepts.has(field));
  if (!swapped) return null;
  const input = Object.fromEntries(Object.entries(swapped.input).filter(([name]) => tool.accepts.has(name)));
  return { kind: "tool", toolName: swapped.toolName, input };
}

// A price asked of a process the workshop's records do not hold: a workshop that has uploaded its
// price list (工价表.xlsx) before setting up its processes has the answer in its files.
function noRecordedProcess(results: ToolResultSeen[]): boolean {
  const [only] = results;
  if (results.length !== 1 || !only || only.isError || only.toolName !== "query_processes") return false;
  const totals = (only.output as { totals?: { processes?: unknown } } | null)?.totals;
  return totals?.processes === 0;
}

function recordsHoldNone(chinese: boolean): string {
  return chinese
    ? "车间的工序记录里没有这道工序；下面是知识库文件里写的："
    : "The workshop's process records do not hold this process; its files say: ";
}

/** What the offline model does this step: call one tool, or say something. */
type Step = { kind: "tool"; toolName: string; input: Record<string, unknown> } | { kind: "text"; text: string };

function plan(options: LanguageModelV4CallOptions, timeZone: string, now: Date): Step {
  const prompt = options.prompt;
  const lastUser = prompt.findLastIndex((m) => m.role === "user");
  const typed = lastUser >= 0 ? textOf(prompt[lastUser] as Prompt[number]) : "";
  // Words typed in a hurry are read as the ones they sound like, and the answer says so first.
  const reading = readWords(typed);
  const question = reading.text;
  const today = localDate(now, timeZone);
  const instructions = prompt
    .filter((m) => m.role === "system")
    .map(textOf)
    .join("\n");
  const role = roleIn(instructions);
  // Read with the turns before: an answer to a question back, a follow-up ("那李娟呢").
  const standsAlone = (text: string) => {
    const choice = chooseTool(text, today, null);
    return choice !== null && "toolName" in choice;
  };
  const turns = turnsBefore(prompt, lastUser).map((turn) => ({ ...turn, user: readWords(turn.user).text }));
  const request = currentRequest(turns, question, standsAlone);
  // Chinese unless the words are English: "2026-001" or "A01" alone is a workshop's answer, in Chinese.
  const chinese = isChinese(request) || !/[A-Za-z]{3,}/.test(request);
  const offered = new Map<string, OfferedTool>();
  for (const tool of options.tools ?? []) {
    if (tool.type !== "function") continue;
    const schema = tool.inputSchema as { properties?: Record<string, PropertySchema>; required?: unknown };
    const properties = schema.properties ?? {};
    const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : [];
    offered.set(tool.name, { accepts: new Set(Object.keys(properties)), required, properties });
  }
  const turn = prompt.slice(lastUser + 1);
  const results = turn.flatMap(resultsIn);
  const comparison = findComparison(request, today);
  const compared = comparison ? compareStep(comparison, today, results, offered, chinese) : null;
  if (compared) return compared;
  if (results.length > 0) {
    const fromFiles = noRecordedProcess(results) ? extractiveAnswer(question, readPassagesBlock(instructions)) : null;
    if (fromFiles)
      return { kind: "text", text: `${assumed(reading.assumptions, chinese)}${recordsHoldNone(chinese)}${fromFiles}` };
    const inputs = callInputs(turn);
    const replies = results.map((r) => toolReply({ ...r, input: inputs.get(r.toolCallId), question, chinese }));
    return { kind: "text", text: `${assumed(reading.assumptions, chinese)}${replies.join("\n\n")}` };
  }
  // A short answer to the question on the card just shown ("2026-001", "优衣美那张", "第一个", or a
  // candidate's label, which a tap on the card sends): the same write prepared again with that choice.
  const card = openCardBefore(prompt, lastUser);
  const chosen = card && offered.has(card.toolName) ? chosenCandidate(typed, card) : null;
  if (card && chosen) return { kind: "tool", toolName: card.toolName, input: { ...card.input, [chosen.field]: chosen.id } };
  if (CONFIRM_WORDS.test(question)) {
    const text = chinese
      ? "写入要由你在确认卡片上点“确认”（或“取消”），我不能替你确认。"
      : "Writes are confirmed by you, with the Confirm (or Cancel) button on the card; I cannot confirm for you.";
    return { kind: "text", text };
  }
  const greeting = greetingReply(question, role, chinese);
  if (greeting) return { kind: "text", text: greeting };
  // A form the chat showed for a tool's arguments, submitted: the call as the person filled it.
  const submitted = formSubmission(question, (name) => offered.has(name));
  if (submitted) return { kind: "tool", ...submitted };
  // A registered server's tool named in the request ("echo hello", "调用 get-sum 2 和 3"). What it
  // leaves out is asked for in words, or, for several arguments or ones that are not plain values,
  // the call goes as it is and the chat gives the person a form built from the tool's schema.
  const externals = [...offered].map(([name, tool]) => ({ name, ...tool }));
  const external = externalCall(request, externals);
  const externalTool = external ? offered.get(external.toolName) : undefined;
  if (external && externalTool) {
    const missing = externalTool.required.filter((name) => !Object.hasOwn(external.input, name));
    if (needsForm(externalTool, missing)) return { kind: "tool", toolName: external.toolName, input: external.input };
    return callOrAsk(external.toolName, externalTool, external.input, chinese);
  }
  // A period word that decides the figures and cannot be read is asked about, not left out: left
  // out, the answer would count every record ever.
  if (reading.unclear) return { kind: "text", text: askAboutUnclear(reading.unclear, chinese) };
  const swapped = followUpCall(prompt, lastUser, question, today, offered);
  if (swapped) return swapped;
  const picked = chooseTool(request, today, openConsultation(prompt, lastUser));
  // A change of the workshop's own data asked by someone not offered the tool that makes it (staff):
  // refused as any change is, saying who may, rather than left unanswered.
  const choice =
    picked && !("decline" in picked) && picked.toolName === BUSINESS_CHANGE && !offered.has(BUSINESS_CHANGE)
      ? { decline: "change" as const, what: changeSubjectOf(request) }
      : picked;
  const passages = readPassagesBlock(instructions);
  if (choice && "decline" in choice) {
    // A change no tool makes is refused in one sentence that says who can, with no records beside it.
    if (choice.decline === "future") return { kind: "text", text: declineReply(choice, chinese) };
    const offeredTo = (name: string) => offered.has(name);
    return { kind: "text", text: changeReply({ name: choice.what, text: question, role, offered: offeredTo, chinese }) };
  }
  const tool = choice ? offered.get(choice.toolName) : undefined;
  if (choice && tool) {
    const input = Object.fromEntries(Object.entries(choice.args).filter(([name]) => tool.accepts.has(name)));
    return callOrAsk(choice.toolName, tool, input, chinese);
  }
  const answer = extractiveAnswer(question, passages) ?? closestPassage(question, passages);
  return { kind: "text", text: answer ?? capabilities(chinese, [...offered.keys()], role) };
}

function chunks(text: string): string[] {
  const chars = [...text];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += CHUNK) out.push(chars.slice(i, i + CHUNK).join(""));
  return out;
}

function streamParts(step: Step, id: string): LanguageModelV4StreamPart[] {
  const head: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
  if (step.kind === "tool") {
    const input = JSON.stringify(step.input);
    return [
      ...head,
      { type: "tool-input-start", id, toolName: step.toolName },
      { type: "tool-input-delta", id, delta: input },
      { type: "tool-input-end", id },
      { type: "tool-call", toolCallId: id, toolName: step.toolName, input },
      { type: "finish", usage: USAGE, finishReason: { unified: "tool-calls", raw: undefined } },
    ];
  }
  return [
    ...head,
    { type: "text-start", id },
    ...chunks(step.text).map((delta): LanguageModelV4StreamPart => ({ type: "text-delta", id, delta })),
    { type: "text-end", id },
    { type: "finish", usage: USAGE, finishReason: { unified: "stop", raw: undefined } },
  ];
}

function content(step: Step, id: string): LanguageModelV4Content[] {
  if (step.kind === "tool")
    return [{ type: "tool-call", toolCallId: id, toolName: step.toolName, input: JSON.stringify(step.input) }];
  return [{ type: "text", text: step.text }];
}

/**
 * The model used when no remote model is configured: a real `LanguageModelV4` that needs no
 * network. From the user's last message it picks one of the offered tools and fills in the
 * arguments it can read (names, processes, quantities, dates in the workshop's `timeZone`); after
 * a tool has answered it puts the result into words; otherwise it answers extractively from the
 * passages in its instructions, citing them, or says what it can do. It never confirms a write.
 *
 * @example streamText({ model: offlineModel({ timeZone: "Asia/Shanghai" }), ... })
 */
export function offlineModel({ timeZone, now = () => new Date() }: { timeZone: string; now?: () => Date }): LanguageModelV4 {
  return {
    specificationVersion: "v4",
    provider: "weft",
    modelId: OFFLINE_MODEL_ID,
    supportedUrls: {},
    async doGenerate(options) {
      const step = plan(options, timeZone, now());
      return {
        content: content(step, `offline-${crypto.randomUUID()}`),
        finishReason: { unified: step.kind === "tool" ? "tool-calls" : "stop", raw: undefined },
        usage: USAGE,
        warnings: [],
      };
    },
    async doStream(options) {
      const step = plan(options, timeZone, now());
      const parts = streamParts(step, `offline-${crypto.randomUUID()}`);
      let next = 0;
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        pull(controller) {
          const part = parts[next++];
          if (part) controller.enqueue(part);
          else controller.close();
        },
      });
      return { stream };
    },
  };
}
