import { useEffect, useState } from "react";
import { type AuditEntry, api } from "./api.ts";
import { useI18n } from "./i18n.ts";
import { confirmedViaText, settingsWords, shortTime } from "./settings-words.ts";
import { useRequestError } from "./use-request-error.ts";

const SHOWN = 10;

/** The workshop's latest writes (boss and admin, who may read the audit): when, what, who, and how it was confirmed. */
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
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
