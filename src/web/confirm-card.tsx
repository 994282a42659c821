import { useState } from "react";
import type { ConfirmCardData } from "../shapes.ts";
import { ACTION_STATUS_WORDS, CHOICE_LINES, statusWord } from "../status-words.ts";
import { useI18n } from "./i18n.ts";

/**
 * A pending write from a prepare tool. Only a person's click confirms it: Confirm and Cancel call the
 * actions route (through `onDecide`), then the card shows the outcome in place of the buttons. The
 * preview's words are the ones the audit keeps for a yes given here (`cardLines` in
 * src/preview-text.ts): the summary, then each field's label and value.
 */
export function ConfirmCard({
  data,
  onDecide,
  onChoose,
  canChoose = false,
}: {
  data: ConfirmCardData;
  /** Decides the action; resolves to a notice to show (nothing decided, or not recorded), or null. */
  onDecide: (actionId: string, decision: "confirm" | "cancel") => Promise<string | null>;
  /**
   * Answers the card's open question with a candidate: its label goes into the chat as the person's
   * reply, and the assistant prepares the write again with that choice (the same as typing it).
   * Absent outside a chat (the confirm page), where the candidates are only shown.
   */
  onChoose?: (label: string) => void;
  /** Whether a choice can be sent now: the card is the latest answer and nothing is streaming. */
  canChoose?: boolean;
}) {
  const { t, lang } = useI18n();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const expires = new Date(data.expires_at);
  const expiresText = Number.isNaN(expires.getTime())
    ? ""
    : expires.toLocaleString(lang === "zh" ? "zh-CN" : "en", { dateStyle: "short", timeStyle: "short" });
  // Once written, a value only known then (a new order's number) is in what was written, not "确认后自动生成".
  const preview = data.status === "confirmed" ? data.preview.filter((row) => !row.until_written) : data.preview;
  const decide = async (decision: "confirm" | "cancel") => {
    setBusy(true);
    setNotice(null);
    try {
      setNotice(await onDecide(data.action_id, decision));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="confirm-card" data-action-id={data.action_id} data-status={data.status} aria-label={t.confirmTitle}>
      <header>
        <strong>{data.summary}</strong>
        {/* A pending card with a choice still open cannot be confirmed: it waits for the choice, not a click. */}
        <span className={`badge status-${data.status}`}>
          {data.status === "pending" && data.ambiguities.length > 0
            ? t.actionNeedsChoice
            : statusWord(ACTION_STATUS_WORDS, data.status, lang)}
        </span>
      </header>
      {preview.length > 0 && (
        <dl>
          {preview.map((row) => (
            <div key={row.label}>
              <dt>{row.label}</dt>
              <dd>{row.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {data.ambiguities.length > 0 && (
        <div className="ambiguities">
          <p>{t.ambiguities}</p>
          {data.ambiguities.map((a) => (
            <fieldset key={a.field} className="options choices" disabled={data.status !== "pending" || !canChoose || !onChoose}>
              <legend>{t.ambiguityAsks.get(a.field) ?? a.message}</legend>
              {a.candidates.map((c) => (
                <button key={c.id} type="button" className="choice" onClick={() => onChoose?.(c.label)}>
                  {c.label}
                </button>
              ))}
            </fieldset>
          ))}
          {data.status === "pending" && onChoose && <p className="choice-hint">{CHOICE_LINES[lang]}</p>}
        </div>
      )}
      {notice && (
        <p className="error-text" role="alert">
          {notice}
        </p>
      )}
      {data.status === "pending" ? (
        <footer>
          {expiresText && <small>{t.expiresAt(expiresText)}</small>}
          <div className="actions">
            <button type="button" className="secondary" disabled={busy} onClick={() => decide("cancel")}>
              {t.cancelAction}
            </button>
            {/* An action with open choices cannot be confirmed: the server refuses it, so no button offers it. */}
            {data.ambiguities.length === 0 && (
              <button type="button" className="primary" disabled={busy} onClick={() => decide("confirm")}>
                {t.confirm}
              </button>
            )}
          </div>
        </footer>
      ) : (
        data.outcome && <p className="action-result">{data.outcome}</p>
      )}
    </section>
  );
}
