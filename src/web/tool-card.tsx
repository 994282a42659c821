import type { DynamicToolUIPart, ToolUIPart } from "ai";
import type { BothLanguages } from "../shapes.ts";
import { chatWords } from "./chat-words.ts";
import { type Lang, useI18n } from "./i18n.ts";
import { useToolWords } from "./tool-words.ts";

function pretty(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

// A value in a line of words: text as it is, a record by its name or its fields, a list by its length.
function brief(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value !== "object") return String(value);
  if (Array.isArray(value)) return `[${value.length}]`;
  const record = value as Record<string, unknown>;
  if (typeof record.yuan === "string") return `¥${record.yuan}`;
  if (typeof record.name === "string") return record.name;
  return Object.values(record).map(brief).filter(Boolean).join(" ");
}

type Words = Record<string, BothLanguages>;

function word(words: Words, text: string, lang: Lang): string {
  return Object.hasOwn(words, text) ? (words[text] as BothLanguages)[lang] : text;
}

/** The input as "name: value" pairs on one line, in the tool's words; the JSON stays behind the toggle. */
function inputLine(input: unknown, words: Words, lang: Lang): string {
  if (!input || typeof input !== "object") return brief(input);
  return Object.entries(input as Record<string, unknown>)
    .map(([key, value]) => `${word(words, key, lang)}: ${word(words, brief(value), lang)}`)
    .join(" · ");
}

// How many rows each list in a result holds ("计件记录 20"), so a person sees what came back. Lists
// the tool names are its rows; any other (an external tool's) by its own key.
function outputLine(output: unknown, lists: Words, lang: Lang): string {
  if (!output || typeof output !== "object") return brief(output);
  const named = Object.keys(lists).length > 0;
  return Object.entries(output as Record<string, unknown>)
    .filter(([key, value]) => Array.isArray(value) && (!named || Object.hasOwn(lists, key)))
    .map(([key, value]) => `${word(lists, key, lang)} ${(value as unknown[]).length}`)
    .join(" · ");
}

/**
 * A tool call under its title and icon (Weft's own tools' words come from their definitions, an
 * external server's tool shows the title its server gave) with its state; opened, a readable line
 * of its input and result, and the raw JSON behind a second toggle.
 */
export function ToolCard({ name, part }: { name: string; part: ToolUIPart | DynamicToolUIPart }) {
  const { t, lang } = useI18n();
  const said = useToolWords()?.get(name);
  const states = t.toolState as Record<string, string>;
  // A call whose arguments went to a form for the person to fill (see tool-form.tsx) waits for them.
  const waiting = part.state === "output-available" && (part.output as { status?: unknown } | null)?.status === "needs_input";
  const label = waiting ? chatWords(lang).needsInput : (states[part.state] ?? t.toolState.other);
  const title = said?.title[lang] ?? part.title ?? name;
  const summary =
    part.state === "output-available" && typeof (part.output as { summary?: unknown } | null)?.summary === "string"
      ? String((part.output as { summary: string }).summary)
      : null;
  // A prepared write says what it is in its summary; its preview and open questions are on its card.
  const prepared = (part.output as { status?: unknown } | null)?.status === "pending";
  const output = part.state === "output-available" && !prepared ? outputLine(part.output, said?.lists ?? {}, lang) : "";
  return (
    <details className="tool-card" data-tool={name} data-state={part.state}>
      <summary>
        {said && <img className="tool-icon" src={said.icon} alt="" width={16} height={16} />}
        <span className="tool-name" title={name}>
          {title}
        </span>
        <span className={`badge state-${part.state}`}>{label}</span>
      </summary>
      {part.input !== undefined && (
        <p className="tool-line">
          <strong>{t.toolInput}</strong> {inputLine(part.input, said?.fields ?? {}, lang) || "—"}
        </p>
      )}
      {(summary || output) && (
        <p className="tool-line">
          <strong>{t.toolOutput}</strong> {[summary, output].filter(Boolean).join(" · ")}
        </p>
      )}
      {/* The tool's own error is for developers and in its words: behind the raw data; the reply says it in the person's. */}
      {part.state === "output-error" && <p className="tool-line error-text">{t.toolFailed}</p>}
      <details className="tool-raw">
        <summary>{t.rawData}</summary>
        {part.input !== undefined && (
          <section>
            <h4>{t.toolInput}</h4>
            <pre>{pretty(part.input)}</pre>
          </section>
        )}
        {part.state === "output-available" && (
          <section>
            <h4>{t.toolOutput}</h4>
            <pre>{pretty(part.output)}</pre>
          </section>
        )}
        {part.state === "output-error" && (
          <section>
            <h4>{t.toolError}</h4>
            <pre>{part.errorText}</pre>
          </section>
        )}
      </details>
    </details>
  );
}
