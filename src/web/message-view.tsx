import { isToolUIPart } from "ai";
import { lazy, Suspense, useMemo } from "react";
import type { CitedSource } from "../shapes.ts";
import { DECIDE_LINES, decidedLine } from "../status-words.ts";
import { type ConsultationStep, consultationStep, type WeftMessage } from "./chat-types.ts";
import { ConfirmCard } from "./confirm-card.tsx";
import { useI18n } from "./i18n.ts";
import { Markdown } from "./lazy-markdown.tsx";
import { ToolCard } from "./tool-card.tsx";

// Fetched when a form first shows: most conversations never need one.
const ToolForm = lazy(() => import("./tool-form.tsx"));

interface Props {
  message: WeftMessage;
  /** True while this message is the one being streamed. */
  streaming: boolean;
  /** True when this is the last message and nothing is streaming: only then do consultation options answer. */
  canAnswer: boolean;
  onOption: (description: string) => void;
  onDecide: (actionId: string, decision: "confirm" | "cancel") => Promise<string | null>;
  /** Opens a passage the answer cites, with the sentences it quotes from it. */
  onCite: (source: CitedSource, quotes: string[]) => void;
}

function ConsultationOptions({
  step,
  enabled,
  onOption,
}: {
  step: ConsultationStep;
  enabled: boolean;
  onOption: Props["onOption"];
}) {
  const { t } = useI18n();
  return (
    <section className="consultation" data-session-id={step.session_id}>
      {step.current_step && <h4>{step.current_step}</h4>}
      <p>{step.response}</p>
      {step.is_complete ? (
        <p className="badge status-confirmed">{t.consultationDone}</p>
      ) : (
        step.options.length > 0 && (
          <fieldset className="options" disabled={!enabled}>
            <legend>{t.consultationOptions}</legend>
            {step.options.map((option) => (
              <button key={option.id} type="button" onClick={() => onOption(option.description)}>
                {option.description}
              </button>
            ))}
          </fieldset>
        )
      )}
    </section>
  );
}

/** One message: text as Markdown (parsed incrementally while it streams), tool cards, confirm cards, consultations. */
export function MessageView({ message, streaming, canAnswer, onOption, onDecide, onCite }: Props) {
  const { t, lang } = useI18n();
  const mine = message.role === "user";
  // The passages the answer may cite (retrieved, or a search tool's results): its citations open them.
  const sources = useMemo(() => message.parts.flatMap((p) => (p.type === "data-sources" ? p.data.sources : [])), [message.parts]);
  // Once its card is decided, the line asking to decide it says what happened instead.
  const decided = message.parts.find((p) => p.type === "data-confirm-card" && p.data.status !== "pending");
  const outcome = decided?.type === "data-confirm-card" ? decidedLine(decided.data.status, decided.data.outcome, lang) : null;
  return (
    <article className={`message ${mine ? "from-user" : "from-assistant"}`} data-role={message.role} aria-busy={streaming}>
      <h3 className="sr-only">{mine ? t.you : t.assistant}</h3>
      {message.parts.map((part, index) => {
        const key = `${message.id}-${index}`;
        if (part.type === "text") {
          return mine ? (
            <p key={key} className="user-text">
              {part.text}
            </p>
          ) : (
            <Markdown
              key={key}
              text={outcome ? part.text.replace(DECIDE_LINES.zh, outcome).replace(DECIDE_LINES.en, outcome) : part.text}
              streaming={streaming}
              animating={streaming && part.state === "streaming"}
              sources={sources}
              onCite={onCite}
            />
          );
        }
        if (part.type === "data-confirm-card") {
          return (
            <ConfirmCard key={part.id ?? key} data={part.data} onDecide={onDecide} onChoose={onOption} canChoose={canAnswer} />
          );
        }
        if (part.type === "data-tool-form") {
          return (
            <Suspense key={part.id ?? key} fallback={null}>
              <ToolForm data={part.data} enabled={canAnswer} onSubmit={onOption} />
            </Suspense>
          );
        }
        if (part.type === "source-url") {
          return (
            <a key={key} className="citation" href={part.url} target="_blank" rel="noreferrer noopener">
              {part.title ?? part.url}
            </a>
          );
        }
        if (part.type === "source-document") {
          return (
            <span key={key} className="citation">
              {part.title}
            </span>
          );
        }
        if (isToolUIPart(part)) {
          const name = part.type === "dynamic-tool" ? part.toolName : part.type.slice("tool-".length);
          const step = part.state === "output-available" ? consultationStep(part.output) : null;
          return (
            <div key={part.toolCallId} className="tool">
              <ToolCard name={name} part={part} />
              {step && <ConsultationOptions step={step} enabled={canAnswer} onOption={onOption} />}
            </div>
          );
        }
        return null;
      })}
    </article>
  );
}
