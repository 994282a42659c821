import type { DynamicToolUIPart, ToolUIPart } from "ai";
import { useI18n } from "./i18n.ts";

function pretty(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

/** A tool call, collapsed to its name and state; opening it shows the input and the output or error. */
export function ToolCard({ name, part }: { name: string; part: ToolUIPart | DynamicToolUIPart }) {
  const { t } = useI18n();
  const states = t.toolState as Record<string, string>;
  const label = states[part.state] ?? t.toolState.other;
  return (
    <details className="tool-card" data-tool={name} data-state={part.state}>
      <summary>
        <span className="tool-name">{name}</span>
        <span className={`badge state-${part.state}`}>{label}</span>
      </summary>
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
          <p className="error-text">{part.errorText}</p>
        </section>
      )}
    </details>
  );
}
