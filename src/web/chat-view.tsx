import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport } from "ai";
import { type FormEvent, lazy, type ReactNode, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { CitedSource } from "../shapes.ts";
import { ApiError, api, type KnowledgeBase } from "./api.ts";
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
// Fetched with the first question sent (beside the Markdown renderer): a new chat has no answer.
// Not when the answer stops streaming: that is when a dropped connection cuts it, and a part that
// cannot be fetched then would put the reload notice in place of the whole conversation.
const loadAnswerActions = () => import("./answer-actions.tsx");
const AnswerActions = lazy(loadAnswerActions);
const Versions = lazy(() => loadAnswerActions().then((m) => ({ default: m.Versions })));

interface Props {
  chatId: string;
  /** The signed-in person's role, for the suggestions an empty chat offers. */
  role: string;
  initialMessages: WeftMessage[];
  knowledgeBases: KnowledgeBase[];
  /** Called when a reply ends, so the sidebar can show a new or retitled chat. */
  onTurnEnd: () => void;
  /** Called when a reply starts streaming (its question is stored), so a reload reopens this chat. */
  onTurnStart: () => void;
  /** Called on any sign that the session has ended (a 401). */
  onUnauthorized: () => void;
}

/** The transport throws the response body as the message: Weft's JSON error body, or a stream's error text. */
function describeError(error: Error): { code?: string; reason?: string; message: string } {
  try {
    const body = JSON.parse(error.message) as { error?: { code?: unknown; message?: unknown; details?: { reason?: unknown } } };
    if (typeof body.error?.message === "string") {
      const reason = body.error.details?.reason;
      return {
        code: typeof body.error.code === "string" ? body.error.code : undefined,
        reason: typeof reason === "string" ? reason : undefined,
        message: body.error.message,
      };
    }
  } catch {
    // Plain text, as a stream's error part carries it.
  }
  return { message: error.message };
}

const textOfMessage = (message: WeftMessage) => message.parts.map((p) => (p.type === "text" ? p.text : "")).join("");

/** One conversation: its messages as they stream, the composer, and the confirm-card round trip. */
export function ChatView({ chatId, role, initialMessages, knowledgeBases, onTurnEnd, onTurnStart, onUnauthorized }: Props) {
  const { t, lang } = useI18n();
  const words = chatWords(lang);
  const toolWords = useToolWords();
  const [chosen, setChosen] = useState<ChosenKb[]>([]);
  // Set when what is shown may be behind the server: a reply ended while this page was away.
  const behind = useRef(initialMessages.at(-1)?.role === "user");
  const reloadRef = useRef<() => void>(() => {});
  const transport = useMemo(
    () =>
      new DefaultChatTransport<WeftMessage>({
        api: "/api/chat",
        credentials: "same-origin",
        // The server keeps the history and reads only the new message, so only that one is sent.
        prepareSendMessagesRequest: ({ id, messages, body, trigger }) => ({
          body: { id, message: messages.at(-1), trigger, ...body },
        }),
        // A reload, a dropped connection or a phone back from another app follows the running reply.
        prepareReconnectToStreamRequest: ({ id }) => ({ api: `/api/chats/${encodeURIComponent(id)}/stream` }),
        fetch: async (input, init) => {
          const res = await fetch(input, init);
          // No reply running: any that ran while away is in the history now.
          if (res.status === 204 && behind.current) reloadRef.current();
          return res;
        },
      }),
    [],
  );
  const { messages, sendMessage, regenerate, resumeStream, status, stop, setMessages, error, clearError } = useChat<WeftMessage>({
    id: chatId,
    messages: initialMessages,
    transport,
    resume: true,
    onFinish: ({ isDisconnect }) => {
      behind.current = isDisconnect;
      onTurnEnd();
    },
    onError: (failure) => {
      if (describeError(failure).reason !== "reply_running") return;
      // Another reply of this chat is being written (in another tab): this question was not
      // stored. It goes back into the box, and this tab follows the reply being written.
      const unsent = messagesRef.current.at(-1);
      setReplyRunning(true);
      void catchUpRef.current().then((stored) => {
        if (unsent?.role === "user" && stored && !stored.some((m) => m.id === unsent.id)) {
          setDraft({ text: textOfMessage(unsent) });
        }
      });
    },
  });
  const catchUpRef = useRef(async (): Promise<WeftMessage[] | null> => null);
  const messagesRef = useRef(messages);
  messagesRef.current = messages;
  const busyRef = useRef(false);
  busyRef.current = status === "submitted" || status === "streaming";
  // A question of this tab was refused: another reply of the chat was being written.
  const [replyRunning, setReplyRunning] = useState(false);
  const [draft, setDraft] = useState<{ text: string } | null>(null);
  reloadRef.current = () => {
    behind.current = false;
    api.getChat(chatId).then(
      (chat) => setMessages(chat.messages as WeftMessage[]),
      () => undefined,
    );
  };
  /**
   * Shows what the server holds when this tab may not know it (another tab of the same chat asked
   * meanwhile): the history, then the reply being written, if any, followed to its end.
   */
  const catchUp = async (): Promise<WeftMessage[] | null> => {
    const chat = await api.getChat(chatId).catch(() => null);
    if (!chat || busyRef.current) return null;
    const stored = chat.messages as WeftMessage[];
    if (stored.map((m) => m.id).join() !== messagesRef.current.map((m) => m.id).join()) setMessages(stored);
    clearError();
    if (stored.at(-1)?.role === "user") {
      behind.current = true;
      void resumeStream();
    }
    return stored;
  };
  catchUpRef.current = catchUp;
  // Back online (Wi-Fi in the workshop came back), or a tab shown again (a phone back from another
  // app, a second tab of the chat): a reply cut off by the drop goes on where it is (a hidden tab
  // when it is shown); a tab that was not cut off reads what the chat holds now, in case another
  // tab asked meanwhile.
  useEffect(() => {
    const resume = () => {
      if (!behind.current || document.visibilityState === "hidden") return;
      clearError();
      void resumeStream();
    };
    // A reply the drop cut off, useChat resumes itself when the page is shown again.
    const shown = () => {
      if (document.visibilityState !== "visible" || busyRef.current || behind.current) return;
      void catchUpRef.current();
    };
    window.addEventListener("online", resume);
    document.addEventListener("visibilitychange", shown);
    return () => {
      window.removeEventListener("online", resume);
      document.removeEventListener("visibilitychange", shown);
    };
  }, [resumeStream, clearError]);
  const [editing, setEditing] = useState<string | null>(null);
  useEffect(() => {
    if (status === "streaming") onTurnStart();
  }, [status, onTurnStart]);
  const bottom = useRef<HTMLDivElement>(null);
  const [cited, setCited] = useState<{ source: CitedSource; quotes: string[] } | null>(null);
  const onCite = useCallback((source: CitedSource, quotes: string[]) => setCited({ source, quotes }), []);
  const closeCited = useCallback(() => setCited(null), []);
  const busy = status === "submitted" || status === "streaming";

  const described = error ? describeError(error) : null;
  // A question refused because another tab's reply runs is said in the notice below, in words.
  const problem = described?.reason === "reply_running" ? null : described;
  useEffect(() => {
    if (problem?.code === "unauthorized") onUnauthorized();
  }, [problem?.code, onUnauthorized]);

  const lastLength = messages.at(-1)?.parts.length ?? 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when a message or a part arrives, not on every render.
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: "end" });
  }, [messages.length, lastLength]);

  const send = (text: string, edited?: WeftMessage) => {
    clearError();
    setReplyRunning(false);
    // The renderer arrives while the model is still thinking, not after the answer has begun.
    void preloadMarkdown();
    void loadAnswerActions();
    const kbIds = chosen.map((kb) => kb.id);
    if (!edited) return void sendMessage({ text }, { body: { kbIds } });
    // An edit says at once how many questions it replaced, as the server stores it.
    const previous = (edited.metadata?.previous ?? 0) + 1;
    void sendMessage({ text, metadata: { previous } }, { body: { kbIds, replaces: edited.id } });
  };
  /** Stops the reply here and on the server, where the model stops and what it said is kept, marked stopped. */
  const stopReply = () => {
    void stop();
    api.stopReply(chatId).then(reloadRef.current, () => undefined);
  };
  const retry = () => {
    clearError();
    void regenerate({ body: { kbIds: chosen.map((kb) => kb.id) } });
  };
  /** Asks the edited question in place of the last one, which stays reachable as its earlier version. */
  const submitEdit = (event: FormEvent<HTMLFormElement>, questionId: string) => {
    event.preventDefault();
    const text = String(new FormData(event.currentTarget).get("question") ?? "").trim();
    if (!text) return;
    const at = messages.findIndex((m) => m.id === questionId);
    const edited = messages[at];
    if (!edited) return;
    setEditing(null);
    setMessages(messages.slice(0, at));
    send(text, edited);
  };
  const lastQuestion = messages.findLast((m) => m.role === "user")?.id;

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
            const streaming = last && status === "streaming" && message.role === "assistant";
            let footer: ReactNode = null;
            if (message.role === "assistant" && !streaming) {
              footer = (
                <Suspense fallback={null}>
                  <AnswerActions chatId={chatId} message={message} onRetry={last && !busy ? retry : undefined} />
                </Suspense>
              );
            } else if (message.role === "user" && editing === message.id) {
              footer = (
                <form className="edit-question" onSubmit={(e) => submitEdit(e, message.id)}>
                  <textarea name="question" aria-label={words.edit} defaultValue={textOfMessage(message)} maxLength={8000} />
                  <button type="submit">{words.editSend}</button>
                  <button type="button" className="secondary" onClick={() => setEditing(null)}>
                    {words.cancel}
                  </button>
                </form>
              );
            } else if (message.role === "user") {
              const previous = message.metadata?.previous ?? 0;
              footer = (
                <>
                  {previous > 0 && (
                    <Suspense fallback={null}>
                      <Versions
                        chatId={chatId}
                        messageId={message.id}
                        count={previous}
                        label={words.earlierQuestions(previous)}
                      />
                    </Suspense>
                  )}
                  {message.id === lastQuestion && !busy && (
                    <button type="button" className="secondary edit-button" onClick={() => setEditing(message.id)}>
                      {words.edit}
                    </button>
                  )}
                </>
              );
            }
            return (
              <MessageView
                key={message.id}
                message={message}
                streaming={streaming}
                canAnswer={last && !busy}
                onOption={send}
                onDecide={onDecide}
                onCite={onCite}
                footer={footer}
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
          {replyRunning && (
            <div className="error-banner reply-running" role="alert">
              <span>{words.replyRunning}</span>
              <button type="button" className="secondary" onClick={() => setReplyRunning(false)}>
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
          draft={draft}
          onSend={send}
          onStop={stopReply}
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
