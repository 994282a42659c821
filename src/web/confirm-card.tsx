import { useState } from "react";
import type { ConfirmCardData } from "../shapes.ts";
import { ACTION_STATUS_WORDS, statusWord } from "../status-words.ts";
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
}: {
  data: ConfirmCardData;
  /** Decides the action; resolves to a notice to show (nothing decided, or not recorded), or null. */
  onDecide: (actionId: string, decision: "confirm" | "cancel") => Promise<string | null>;
}) {
  const { t, lang } = useI18n();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const expires = new Date(data.expires_at);
  const expiresText = Number.isNaN(expires.getTime())
    ? ""
    : expires.toLocaleString(lang === "zh" ? "zh-CN" : "en", { dateStyle: "short", timeStyle: "short" });
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
      {data.preview.length > 0 && (
        <dl>
          {data.preview.map((row) => (
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
          <ul>
            {data.ambiguities.map((a) => (
              <li key={a.field}>
                {t.ambiguityAsks.get(a.field) ?? a.message}
                {a.candidates.length > 0 && ` ${a.candidates.map((c) => c.label).join("、")}`}
              </li>
            ))}
          </ul>
          {data.status === "pending" && <p>{t.ambiguityHint}</p>}
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
