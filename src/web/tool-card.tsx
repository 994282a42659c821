import type { DynamicToolUIPart, ToolUIPart } from "ai";
import { chatWords } from "./chat-words.ts";
import { useI18n } from "./i18n.ts";

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

type Words = Record<string, string>;

function word(words: Words, text: string): string {
  return Object.hasOwn(words, text) ? (words[text] as string) : text;
}

/** The input as "name: value" pairs on one line, in the UI's words; the JSON stays behind the toggle. */
function inputLine(input: unknown, words: Words): string {
  if (!input || typeof input !== "object") return brief(input);
  return Object.entries(input as Record<string, unknown>)
    .map(([key, value]) => `${word(words, key)}: ${word(words, brief(value))}`)
    .join(" · ");
}

// How many rows each list in a result holds ("计件记录 20"), so a person sees what came back.
function outputLine(output: unknown, words: Words): string {
  if (!output || typeof output !== "object") return brief(output);
  return Object.entries(output as Record<string, unknown>)
    .filter(([, value]) => Array.isArray(value))
    .map(([key, value]) => `${word(words, key)} ${(value as unknown[]).length}`)
    .join(" · ");
}

/**
 * A tool call under its human title with its state; opened, a readable line of its input and
 * result, and the raw JSON behind a second toggle.
 */
export function ToolCard({ name, part }: { name: string; part: ToolUIPart | DynamicToolUIPart }) {
  const { t, lang } = useI18n();
  const words = chatWords(lang);
  const states = t.toolState as Record<string, string>;
  // A call whose arguments went to a form for the person to fill (see tool-form.tsx) waits for them.
  const waiting = part.state === "output-available" && (part.output as { status?: unknown } | null)?.status === "needs_input";
  const label = waiting ? words.needsInput : (states[part.state] ?? t.toolState.other);
  // Weft's own tools by what they do in the UI's language; a server's tool by the title it gave.
  const title = Object.hasOwn(words.toolTitles, name) ? words.toolTitles[name] : (part.title ?? name);
  return (
    <details className="tool-card" data-tool={name} data-state={part.state}>
      <summary>
        <span className="tool-name" title={name}>
          {title}
        </span>
        <span className={`badge state-${part.state}`}>{label}</span>
      </summary>
      {part.input !== undefined && (
        <p className="tool-line">
          <strong>{t.toolInput}</strong> {inputLine(part.input, words.toolWords) || "—"}
        </p>
      )}
      {part.state === "output-available" && outputLine(part.output, words.toolWords) && (
        <p className="tool-line">
          <strong>{t.toolOutput}</strong> {outputLine(part.output, words.toolWords)}
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
