import { type FormEvent, useEffect, useState } from "react";
import { ApiError, api, type SignupMode, type User } from "./api.ts";
import { useI18n } from "./i18n.ts";

/** Whether a refused sign-in is that of a deactivated person (the server says so only once the password was right). */
function deactivated(failure: ApiError): boolean {
  return (failure.body as { error?: { details?: { reason?: unknown } } } | undefined)?.error?.details?.reason === "deactivated";
}

/**
 * The sign-in form: username and password; the server answers with the user and sets the session
 * cookie. Where this Weft takes sign-ups, it links to the sign-up page.
 */
export function SignIn({
  notice,
  initialUsername,
  onSignedIn,
}: {
  notice?: string | undefined;
  initialUsername?: string | undefined;
  onSignedIn: (user: User) => void;
}) {
  const { t, lang, setLang } = useI18n();
  const [username, setUsername] = useState(initialUsername ?? "");
  const [signup, setSignup] = useState<SignupMode>("closed");
  useEffect(() => {
    api.signupMode().then(
      (r) => setSignup(r.signup),
      () => undefined,
    );
  }, []);
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { user } = await api.login(username.trim(), password);
      onSignedIn(user);
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 401) setError(t.badCredentials);
      else if (failure instanceof ApiError && deactivated(failure)) setError(t.deactivated);
      else if (failure instanceof ApiError && failure.status === 429) setError(t.rateLimited(failure.retryAfterSeconds ?? 60));
      else if (failure instanceof ApiError) setError(failure.message);
      else setError(t.unreachable);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="sign-in">
      <form onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">{t.signInTitle}</h1>
        <p className="muted">{t.signInLead}</p>
        {notice && (
          <p className="notice" role="status">
            {notice}
          </p>
        )}
        <label>
          {t.username}
          <input
            name="username"
            // biome-ignore lint/a11y/noAutofocus: the sign-in screen has one task, and keyboard users start typing at once.
            autoFocus={!initialUsername}
            autoComplete="username"
            required
            value={username}
            onChange={(event) => setUsername(event.target.value)}
          />
        </label>
        <label>
          {t.password}
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            // biome-ignore lint/a11y/noAutofocus: after setting a password the username is filled in, so the password is next.
            autoFocus={Boolean(initialUsername)}
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t.signingIn : t.signIn}
        </button>
        {signup !== "closed" && <a href="/sign-up">{t.createWorkshop}</a>}
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
