import { type FormEvent, useState } from "react";
import { accountErrorText } from "./account-error.ts";
import { ApiError, api } from "./api.ts";
import { useI18n } from "./i18n.ts";
import { passwordWords } from "./password-words.ts";
import "./account.css";

/**
 * Everyone's own password: the current one, the new one twice. The server checks the new one
 * (length, the most common passwords) and ends the person's other sessions; this one stays.
 */
export function PasswordSettings({ onUnauthorized }: { onUnauthorized: () => void }) {
  const { lang } = useI18n();
  const w = passwordWords(lang);
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [again, setAgain] = useState("");
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    if (next !== again) {
      setError(w.passwordsDiffer);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { ended_sessions } = await api.changePassword(current, next);
      setDone(w.passwordChanged(ended_sessions));
      setCurrent("");
      setNext("");
      setAgain("");
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) onUnauthorized();
      else setError(accountErrorText(e, w));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="settings-section" aria-labelledby="password-title">
      <h3 id="password-title">{w.passwordTitle}</h3>
      <p className="muted">{w.passwordLead}</p>
      <form className="mcp-add account-form" onSubmit={(e) => void submit(e)}>
        <label>
          <span>{w.currentPassword}</span>
          <input
            type="password"
            name="current-password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
        </label>
        <label>
          <span>{w.newPassword}</span>
          <input
            type="password"
            name="new-password"
            autoComplete="new-password"
            required
            minLength={8}
            value={next}
            onChange={(e) => setNext(e.target.value)}
          />
        </label>
        <label>
          <span>{w.repeatPassword}</span>
          <input
            type="password"
            name="repeat-password"
            autoComplete="new-password"
            required
            minLength={8}
            value={again}
            onChange={(e) => setAgain(e.target.value)}
          />
        </label>
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        {done && (
          <p className="ok-text" role="status">
            {done}
          </p>
        )}
        <div className="mcp-actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? w.changing : w.changePassword}
          </button>
        </div>
      </form>
    </section>
  );
}
