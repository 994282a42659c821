import { type FormEvent, useEffect, useState } from "react";
import { accountErrorText } from "./account-error.ts";
import { fragmentValue } from "./account-page-path.ts";
import { accountWords } from "./account-words.ts";
import { ApiError, api, type PasswordLinkHolder } from "./api.ts";
import { useI18n } from "./i18n.ts";
import { passwordWords } from "./password-words.ts";
import "./account.css";

// The link's token, read once from the fragment; the address then drops it, so it stays in no
// history entry, bookmark or screenshot. Kept here, since React may run an initialiser twice.
let taken: string | null | undefined;
function takeToken(): string | null {
  if (taken === undefined) {
    taken = fragmentValue(location.hash, "token");
    if (location.hash) history.replaceState(null, "", location.pathname);
  }
  return taken;
}

/**
 * The page a one-time set-password link opens (`/set-password#token=…`): it greets the person by
 * name with their username and workshop, takes the new password twice, and hands over to sign-in
 * with the username filled in. A used, expired or broken link says so and what to do.
 */
export function SetPasswordPage({ onDone }: { onDone: (username: string, notice: string) => void }) {
  const { t, lang, setLang } = useI18n();
  const w = accountWords(lang);
  const pw = passwordWords(lang);
  const [token] = useState(takeToken);
  const [holder, setHolder] = useState<PasswordLinkHolder | "invalid" | null>(null);
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) {
      setHolder("invalid");
      return;
    }
    api.checkPasswordLink(token).then(setHolder, (failure) => {
      setHolder("invalid");
      if (!(failure instanceof ApiError && failure.status === 404)) setError(accountErrorText(failure, pw));
    });
  }, [token, pw]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!token || typeof holder !== "object" || holder === null) return;
    if (password !== again) {
      setError(pw.passwordsDiffer);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { username } = await api.setPassword(token, password);
      onDone(username, w.passwordSet(username));
    } catch (failure) {
      setError(accountErrorText(failure, pw));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="sign-in">
      <form onSubmit={(e) => void submit(e)} aria-labelledby="set-password-title">
        <h1 id="set-password-title">{w.setPasswordTitle}</h1>
        {holder === null && <p className="muted">{w.checkingLink}</p>}
        {holder === "invalid" && <p className="notice">{w.linkInvalid}</p>}
        {holder !== null && holder !== "invalid" && (
          <>
            <p>{w.setPasswordLead(holder.name, holder.workshop_name)}</p>
            <p className="notice">{w.yourUsername(holder.username)}</p>
            {/* The username rides along for password managers, which save it with the new password. */}
            <input type="text" name="username" autoComplete="username" value={holder.username} readOnly hidden />
            <label>
              {pw.newPassword}
              <input
                name="password"
                type="password"
                autoComplete="new-password"
                required
                minLength={8}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </label>
            <label>
              {pw.repeatPassword}
              <input
                name="repeat-password"
                type="password"
                autoComplete="new-password"
                required
                minLength={8}
                value={again}
                onChange={(e) => setAgain(e.target.value)}
              />
            </label>
            <button type="submit" className="primary" disabled={busy}>
              {busy ? w.setting : w.setPassword}
            </button>
          </>
        )}
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        <a href="/">{w.goSignIn}</a>
        <button
          type="button"
          className="link"
          lang={lang === "zh" ? "en" : "zh-CN"}
          aria-label={t.switchLanguageLabel}
          onClick={() => setLang(lang === "zh" ? "en" : "zh")}
        >
          {t.switchLanguage}
        </button>
      </form>
    </main>
  );
}
