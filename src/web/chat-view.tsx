import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport } from "ai";
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { CitedSource } from "../shapes.ts";
import { ApiError, type KnowledgeBase } from "./api.ts";
import { type WeftMessage, withActionOutcome } from "./chat-types.ts";
import { chatWords } from "./chat-words.ts";
import { type ChosenKb, Composer } from "./composer.tsx";
import { decideAction } from "./decide-action.ts";
import { useI18n } from "./i18n.ts";
import { preloadMarkdown } from "./lazy-markdown.tsx";
import { MessageView } from "./message-view.tsx";
import { resultLabels } from "./result-labels.ts";
import { useToolWords } from "./tool-words.ts";

// Fetched on the first citation opened: most conversations never open one.
const SourcePanel = lazy(() => import("./source-panel.tsx"));

interface Props {
  chatId: string;
  /** The signed-in person's role, for the suggestions an empty chat offers. */
  role: string;
  initialMessages: WeftMessage[];
  knowledgeBases: KnowledgeBase[];
  /** Called when a reply ends, so the sidebar can show a new or retitled chat. */
  onTurnEnd: () => void;
  /** Called on any sign that the session has ended (a 401). */
  onUnauthorized: () => void;
}

/** The transport throws the response body as the message: Weft's JSON error body, or a stream's error text. */
function describeError(error: Error): { code?: string; message: string } {
  try {
    const body = JSON.parse(error.message) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.message === "string") {
      return { code: typeof body.error.code === "string" ? body.error.code : undefined, message: body.error.message };
    }
  } catch {
    // Plain text, as a stream's error part carries it.
  }
  return { message: error.message };
}

/** One conversation: its messages as they stream, the composer, and the confirm-card round trip. */
export function ChatView({ chatId, role, initialMessages, knowledgeBases, onTurnEnd, onUnauthorized }: Props) {
  const { t, lang } = useI18n();
  const words = chatWords(lang);
  const toolWords = useToolWords();
  const [chosen, setChosen] = useState<ChosenKb[]>([]);
  const transport = useMemo(
    () =>
      new DefaultChatTransport<WeftMessage>({
        api: "/api/chat",
        credentials: "same-origin",
        // The server keeps the history and reads only the new message, so only that one is sent.
        prepareSendMessagesRequest: ({ id, messages, body }) => ({ body: { id, message: messages.at(-1), ...body } }),
      }),
    [],
  );
  const { messages, sendMessage, status, stop, setMessages, error, clearError } = useChat<WeftMessage>({
    id: chatId,
    messages: initialMessages,
    transport,
    onFinish: () => onTurnEnd(),
  });
  const bottom = useRef<HTMLDivElement>(null);
  const [cited, setCited] = useState<{ source: CitedSource; quotes: string[] } | null>(null);
  const onCite = useCallback((source: CitedSource, quotes: string[]) => setCited({ source, quotes }), []);
  const closeCited = useCallback(() => setCited(null), []);
  const busy = status === "submitted" || status === "streaming";

  const problem = error ? describeError(error) : null;
  useEffect(() => {
    if (problem?.code === "unauthorized") onUnauthorized();
  }, [problem?.code, onUnauthorized]);

  const lastLength = messages.at(-1)?.parts.length ?? 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when a message or a part arrives, not on every render.
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: "end" });
  }, [messages.length, lastLength]);

  const send = (text: string) => {
    clearError();
    // The renderer arrives while the model is still thinking, not after the answer has begun.
    void preloadMarkdown();
    void sendMessage({ text }, { body: { kbIds: chosen.map((kb) => kb.id) } });
  };

  /** Returns why nothing was decided, for the card to show, or null once the card has its outcome. */
  const onDecide = async (actionId: string, decision: "confirm" | "cancel"): Promise<string | null> => {
    try {
      const text = { ...t.outcomeText, labels: resultLabels(toolWords, lang) };
      const outcome = await decideAction(actionId, decision, text, lang);
      // Nothing decided by this click (it failed, or another confirm is writing it): the card says why.
      if (outcome.status === "pending" || outcome.status === "confirming") return outcome.result ?? t.actionRetry;
      setMessages((current) => withActionOutcome(current, actionId, { status: outcome.status, result: outcome.result }));
      return null;
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 401) {
        onUnauthorized();
        return null;
      }
      throw failure;
    }
  };

  return (
    <div className="chat-view">
      <div className="chat-column">
        <div className="messages" role="log" aria-live="polite">
          {messages.length === 0 && (
            <div className="empty">
              <p>{t.emptyChat}</p>
              <p className="suggestions-title">{words.suggestionsTitle}</p>
              <ul className="suggestions">
                {(words.suggestions[role] ?? words.suggestions.staff ?? []).map((text) => (
                  <li key={text}>
                    <button type="button" className="secondary suggestion" onClick={() => send(text)}>
                      {text}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {messages.map((message, index) => {
            const last = index === messages.length - 1;
            return (
              <MessageView
                key={message.id}
                message={message}
                streaming={last && status === "streaming" && message.role === "assistant"}
                canAnswer={last && !busy}
                onOption={send}
                onDecide={onDecide}
                onCite={onCite}
              />
            );
          })}
          {status === "submitted" && <p className="thinking">…</p>}
          {problem && (
            <div className="error-banner" role="alert">
              <span>
                {t.errorTitle}
                {problem.message}
              </span>
              <button type="button" className="secondary" onClick={clearError}>
                {t.dismiss}
              </button>
            </div>
          )}
          <div ref={bottom} />
        </div>
        <Composer
          knowledgeBases={knowledgeBases}
          chosen={chosen}
          onChoose={setChosen}
          busy={busy}
          onSend={send}
          onStop={() => void stop()}
        />
      </div>
      {cited && (
        <Suspense fallback={null}>
          <SourcePanel key={cited.source.chunk_id} source={cited.source} quotes={cited.quotes} onClose={closeCited} />
        </Suspense>
      )}
    </div>
  );
}
