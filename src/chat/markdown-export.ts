import type { UIMessage } from "ai";
import type { ConfirmCardData } from "../shapes.ts";
import { DECIDE_LINES, decidedLine } from "../status-words.ts";
import type { ChatSummary } from "./history.ts";

function fence(value: unknown): string {
  const json = JSON.stringify(value, null, 2) ?? "";
  // A fence longer than any backtick run inside, so tool output cannot close it early.
  const longest = Math.max(2, ...[...json.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  return `${ticks}json\n${json}\n${ticks}`;
}

// The reply's line asking to decide a card, once the card is decided: what happened instead.
function decidedText(text: string, card: ConfirmCardData | null): string {
  const zh = card ? decidedLine(card.status, card.outcome, "zh") : null;
  const en = card ? decidedLine(card.status, card.outcome, "en") : null;
  if (!zh || !en) return text;
  return text.replace(DECIDE_LINES.zh, zh).replace(DECIDE_LINES.en, en);
}

function partAsMarkdown(part: UIMessage["parts"][number], card: ConfirmCardData | null): string | null {
  if (part.type === "text") return decidedText(part.text, card);
  if (part.type === "data-confirm-card") {
    const card = part.data as ConfirmCardData;
    const lines = (card.preview ?? []).map((f) => `> - ${f.label}: ${f.value}`);
    const result = card.outcome ? ` — ${card.outcome}` : "";
    return [`> **Confirm card** (${card.status}${result}): ${card.summary}`, ...lines].join("\n");
  }
  if (part.type.startsWith("tool-") && "state" in part) {
    const name = part.type.slice("tool-".length);
    const call = part as { input?: unknown; output?: unknown; errorText?: string; state: string };
    const outcome = call.state === "output-error" ? `Error: ${call.errorText ?? ""}` : fence(call.output);
    return `<details><summary>Tool ${name}</summary>\n\nInput:\n\n${fence(call.input)}\n\nOutput:\n\n${outcome}\n\n</details>`;
  }
  return null;
}

/** A chat as a Markdown document: title, then each message under its speaker, tool calls folded. */
export function chatAsMarkdown(chat: ChatSummary, messages: UIMessage[]): string {
  const body = messages.map((message) => {
    const who = message.role === "user" ? "## You" : "## Weft";
    const decided = message.parts.find((p) => p.type === "data-confirm-card");
    const card = decided ? ((decided as { data: ConfirmCardData }).data ?? null) : null;
    const parts = message.parts.map((p) => partAsMarkdown(p, card)).filter((p): p is string => p !== null && p !== "");
    return `${who}\n\n${parts.join("\n\n")}`;
  });
  return `# ${chat.title}\n\n_Created ${chat.created_at}, last updated ${chat.updated_at}_\n\n${body.join("\n\n")}\n`;
}
