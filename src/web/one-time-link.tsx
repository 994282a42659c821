import { useState } from "react";
import { useI18n } from "./i18n.ts";
import { peopleWords } from "./people-words.ts";

/**
 * A set-password link just made: shown this once, with a copy button, until the boss says it was
 * sent. Held only in the page's memory, so a reload never shows it again.
 */
export function OneTimeLink({ lead, url, onDone }: { lead: string; url: string; onDone: () => void }) {
  const { lang } = useI18n();
  const w = peopleWords(lang);
  const [copy, setCopy] = useState<"idle" | "copied" | "failed">("idle");
  const copyLink = () => {
    navigator.clipboard.writeText(url).then(
      () => setCopy("copied"),
      () => setCopy("failed"),
    );
  };
  return (
    <div className="new-key one-time-link" role="status">
      <p>{lead}</p>
      <div className="new-key-secret">
        <input
          className="new-key-value"
          readOnly
          aria-label={w.linkLabel}
          value={url}
          spellCheck={false}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" className="primary" onClick={copyLink}>
          {copy === "copied" ? w.copied : w.copy}
        </button>
      </div>
      {copy === "failed" && <p className="error-text">{w.copyFailed}</p>}
      <button type="button" className="secondary" onClick={onDone}>
        {w.sent}
      </button>
    </div>
  );
}
