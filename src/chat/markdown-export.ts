import type { UIMessage } from "ai";
import type { ConfirmCardData } from "../shapes.ts";
import { ACTION_STATUS_WORDS, DECIDE_LINES, decidedLine, type StatusLang, statusWord } from "../status-words.ts";
import type { ChatSummary } from "./history.ts";
import { toolTitle } from "./offline/tool-labels.ts";

/**
 * A chat as a person reads and forwards it: headings in the UI's language, times in the workshop's
 * zone, each tool as its title and the sentence it answered with, each confirm card as its summary,
 * status and preview, and the replies' tables as the chat shows them. No ids, no JSON, and none of
 * what was written for the model.
 */
export interface ExportOptions {
  lang: StatusLang;
  /** The workshop's time zone, for the times a person reads. */
  timeZone: string;
}

const WORDS = {
  zh: { you: "我", weft: "Weft 助手", created: "创建于", updated: "最后更新", card: "确认卡片", failed: "这一步没有完成" },
  en: {
    you: "Me",
    weft: "Weft",
    created: "Created",
    updated: "last updated",
    card: "Confirm card",
    failed: "This step did not finish",
  },
} as const;

/** A moment in the workshop's zone, as a person writes it: 2026-11-28 11:30. */
export function localTime(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(date);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")} ${part("hour")}:${part("minute")}`;
}

// The reply's line asking to decide a card, once the card is decided: what happened instead.
function decidedText(text: string, card: ConfirmCardData | null): string {
  const zh = card ? decidedLine(card.status, card.outcome, "zh") : null;
  const en = card ? decidedLine(card.status, card.outcome, "en") : null;
  if (!zh || !en) return text;
  return text.replace(DECIDE_LINES.zh, zh).replace(DECIDE_LINES.en, en);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// A tool's step as the chat's card titles it, with the sentence its result leads with: a business
// answer's summary (its period and filters), a consultation's question and options.
function toolAsMarkdown(name: string, call: { output?: unknown; state: string }, lang: StatusLang): string | null {
  const title = toolTitle(name, lang === "zh");
  if (call.state === "output-error") return `**${title}**${lang === "zh" ? "：" : ": "}${WORDS[lang].failed}`;
  const output = call.output;
  // A prepared write is its confirm card, shown on its own.
  if (!isRecord(output) || output.status === "pending") return null;
  if (typeof output.response === "string") {
    const options = Array.isArray(output.options)
      ? output.options.filter(isRecord).map((o) => `- ${String(o.description ?? "")}`)
      : [];
    return [`**${title}**${lang === "zh" ? "：" : ": "}${output.response}`, ...options].join("\n");
  }
  return typeof output.summary === "string" ? `**${title}**${lang === "zh" ? "：" : ": "}${output.summary}` : `**${title}**`;
}

function cardAsMarkdown(card: ConfirmCardData, lang: StatusLang): string {
  const colon = lang === "zh" ? "：" : ": ";
  const status = statusWord(ACTION_STATUS_WORDS, card.status, lang);
  const head =
    lang === "zh"
      ? `> **${WORDS.zh.card}**（${status}）${colon}${card.summary}`
      : `> **${WORDS.en.card}** (${status})${colon}${card.summary}`;
  const lines = (card.preview ?? []).map((f) => `> - ${f.label}${colon}${f.value}`);
  return [head, ...lines].join("\n");
}

function partAsMarkdown(part: UIMessage["parts"][number], card: ConfirmCardData | null, lang: StatusLang): string | null {
  if (part.type === "text") return decidedText(part.text, card);
  if (part.type === "data-confirm-card") return cardAsMarkdown(part.data as ConfirmCardData, lang);
  if (part.type.startsWith("tool-") && "state" in part) {
    return toolAsMarkdown(part.type.slice("tool-".length), part as { output?: unknown; state: string }, lang);
  }
  if (part.type === "dynamic-tool") {
    const call = part as { toolName: string; output?: unknown; state: string };
    return toolAsMarkdown(call.toolName, call, lang);
  }
  return null;
}

/** A chat as a Markdown document a person can read: title and times, then each message under its speaker. */
export function chatAsMarkdown(chat: ChatSummary, messages: UIMessage[], { lang, timeZone }: ExportOptions): string {
  const words = WORDS[lang];
  const body = messages.map((message) => {
    const who = message.role === "user" ? `## ${words.you}` : `## ${words.weft}`;
    const decided = message.parts.find((p) => p.type === "data-confirm-card");
    const card = decided ? ((decided as { data: ConfirmCardData }).data ?? null) : null;
    const parts = message.parts.map((p) => partAsMarkdown(p, card, lang)).filter((p): p is string => p !== null && p !== "");
    return `${who}\n\n${parts.join("\n\n")}`;
  });
  const created = localTime(chat.created_at, timeZone);
  const updated = localTime(chat.updated_at, timeZone);
  const times =
    lang === "zh"
      ? `_${words.created} ${created}，${words.updated} ${updated}_`
      : `_${words.created} ${created}, ${words.updated} ${updated}_`;
  return `# ${chat.title}\n\n${times}\n\n${body.join("\n\n")}\n`;
}

// Characters no file system takes in a name, and control characters.
const NOT_IN_NAMES = /[\\/:*?"<>|\p{Cc}]+/gu;

/** The export's file name: the chat's title and the day it was last updated, 张三这个月做了多少件 2026-11-28.md. */
export function exportFileName(chat: ChatSummary, timeZone: string): string {
  const title = chat.title.replace(NOT_IN_NAMES, " ").trim().slice(0, 60) || "Weft";
  return `${title} ${localTime(chat.updated_at, timeZone).slice(0, 10)}.md`;
}
