import { type FormEvent, useState } from "react";
import type { FeedbackRating, MessageVersion } from "../shapes.ts";
import { api } from "./api.ts";
import type { WeftMessage } from "./chat-types.ts";
import { chatWords } from "./chat-words.ts";
import { useI18n } from "./i18n.ts";
import { RetryIcon, ThumbDownIcon, ThumbUpIcon } from "./icons.tsx";
import "./answer-actions.css";

const textOf = (parts: unknown[]) =>
  parts
    .map((p) =>
      typeof p === "object" && p !== null && (p as { type?: unknown }).type === "text"
        ? String((p as { text?: unknown }).text)
        : "",
    )
    .join("")
    .trim();

/**
 * Under an answer: how it ended (stopped, cut off), its earlier versions when it was made again,
 * 👍/👎 with an optional line on 👎, and on the last answer "answer again".
 */
export function AnswerActions({
  chatId,
  message,
  onRetry,
}: {
  chatId: string;
  message: WeftMessage;
  /** Makes this (the last) answer again; absent on earlier answers or while a reply runs. */
  onRetry?: (() => void) | undefined;
}) {
  const { lang } = useI18n();
  const w = chatWords(lang);
  const [rating, setRating] = useState<FeedbackRating | null>(message.metadata?.feedback?.rating ?? null);
  const [asking, setAsking] = useState(false);
  const [line, setLine] = useState("");
  const [noted, setNoted] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const rate = async (next: FeedbackRating, comment?: string) => {
    setProblem(null);
    try {
      if (rating === next && comment === undefined) {
        await api.unrateAnswer(chatId, message.id);
        setRating(null);
        setAsking(false);
        return;
      }
      await api.rateAnswer(chatId, message.id, next, comment);
      setRating(next);
      setAsking(next === "down" && comment === undefined);
      setNoted(comment !== undefined || next === "up");
    } catch (failure) {
      setProblem(failure instanceof Error ? failure.message : String(failure));
    }
  };
  const sendLine = (event: FormEvent) => {
    event.preventDefault();
    void rate("down", line.trim());
  };
  const ended = message.metadata?.ended;
  const previous = message.metadata?.previous ?? 0;
  return (
    <div className="answer-actions">
      {ended && (
        <p className={`badge ended-${ended}`} data-ended={ended}>
          {ended === "stopped" ? w.stopped : w.interrupted}
        </p>
      )}
      {previous > 0 && <Versions chatId={chatId} messageId={message.id} count={previous} label={w.earlier(previous)} />}
      <div className="answer-buttons">
        <button
          type="button"
          className="icon"
          aria-label={w.good}
          title={w.good}
          aria-pressed={rating === "up"}
          onClick={() => void rate("up")}
        >
          <ThumbUpIcon />
        </button>
        <button
          type="button"
          className="icon"
          aria-label={w.bad}
          title={w.bad}
          aria-pressed={rating === "down"}
          onClick={() => void rate("down")}
        >
          <ThumbDownIcon />
        </button>
        {onRetry && (
          <button type="button" className="icon" aria-label={w.retry} title={w.retry} onClick={onRetry}>
            <RetryIcon />
          </button>
        )}
        {noted && <span className="muted">{w.thanks}</span>}
      </div>
      {asking && (
        <form className="feedback-line" onSubmit={sendLine}>
          <input
            aria-label={w.badLine}
            placeholder={w.badLine}
            maxLength={1000}
            value={line}
            onChange={(e) => setLine(e.target.value)}
          />
          <button type="submit" className="secondary">
            {w.sendFeedback}
          </button>
        </form>
      )}
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}

/** A message's earlier versions, fetched when opened: answers made before, or questions before an edit with their answers. */
export function Versions({
  chatId,
  messageId,
  count,
  label,
}: {
  chatId: string;
  messageId: string;
  count: number;
  label: string;
}) {
  const { lang } = useI18n();
  const w = chatWords(lang);
  const [versions, setVersions] = useState<MessageVersion[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const open = () => {
    if (versions !== null) return;
    api.versions(chatId, messageId).then(
      (r) => setVersions(r.versions),
      (failure: unknown) => setProblem(failure instanceof Error ? failure.message : String(failure)),
    );
  };
  return (
    <details className="versions" data-count={count} onToggle={open}>
      <summary>{label}</summary>
      {problem && <p className="error-text">{problem}</p>}
      <ol>
        {(versions ?? []).map((v) => (
          <li key={v.reply?.id ?? v.question?.id ?? v.created_at} className="version">
            {v.question && <p className="user-text">{v.question.text}</p>}
            <p className="version-answer">{v.reply ? textOf(v.reply.parts) || w.noAnswer : w.noAnswer}</p>
          </li>
        ))}
      </ol>
    </details>
  );
}

export default AnswerActions;
