import { useEffect, useState } from "react";
import { type AuditEntry, api } from "./api.ts";
import { useI18n } from "./i18n.ts";
import { confirmedViaText, settingsWords, shortTime } from "./settings-words.ts";
import { useRequestError } from "./use-request-error.ts";

const SHOWN = 10;

/**
 * The workshop's latest writes (boss and admin, who may read the audit): when, what, who, how it
 * was confirmed and with which credential, and on request the preview its person was shown.
 */
export function RecentWrites({ onUnauthorized }: { onUnauthorized: () => void }) {
  const { t, lang } = useI18n();
  const w = settingsWords(lang);
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const { error, fail } = useRequestError(onUnauthorized);
  useEffect(() => {
    api.recentWrites(SHOWN).then((r) => setEntries(r.entries), fail);
  }, [fail]);
  return (
    <section className="settings-section" aria-labelledby="writes-title">
      <h3 id="writes-title">{w.recentWrites}</h3>
      <p className="muted">{w.recentLead}</p>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {entries === null ? (
        !error && <p className="muted">{t.loading}</p>
      ) : entries.length === 0 ? (
        <p className="muted">{w.noWrites}</p>
      ) : (
        <ul className="recent-writes">
          {entries.map((e) => (
            <li key={e.id} data-action-id={e.action_id} data-via={e.confirmed_via ?? ""}>
              <span className="write-what">{e.summary ?? e.kind}</span>
              <span className="muted write-meta">
                <time dateTime={e.created_at}>{shortTime(e.created_at, lang)}</time> · {e.user_name ?? e.user_id} ·{" "}
                <span className="write-via" title={w.viaLabel}>
                  {confirmedViaText(e, w)}
                </span>
              </span>
              {e.shown_sha256 && <Shown id={e.id} onUnauthorized={onUnauthorized} />}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The preview an entry's person was shown, read when asked for, with its digest as the audit keeps it. */
function Shown({ id, onUnauthorized }: { id: string; onUnauthorized: () => void }) {
  const { lang } = useI18n();
  const w = settingsWords(lang);
  const [shown, setShown] = useState<{ text: string | null; sha: string | null } | null>(null);
  const { error, fail } = useRequestError(onUnauthorized);
  const open = () => {
    if (shown) return;
    api.auditEntry(id).then((entry) => setShown({ text: entry.shown_text, sha: entry.shown_sha256 }), fail);
  };
  return (
    <details className="write-shown" onToggle={(e) => e.currentTarget.open && open()}>
      <summary>{w.showShown}</summary>
      {error && <p className="error-text">{error}</p>}
      {shown && (
        <>
          <p className="muted">{w.shownTitle}</p>
          {shown.text === null ? <p className="muted">{w.shownMissing}</p> : <pre className="shown-text">{shown.text}</pre>}
          {shown.sha && <p className="muted shown-digest">{w.shownDigest(shown.sha)}</p>}
        </>
      )}
    </details>
  );
}
