import { type FormEvent, useEffect, useState } from "react";
import { accountErrorText } from "./account-error.ts";
import { fragmentValue } from "./account-page-path.ts";
import { accountWords } from "./account-words.ts";
import { api, type SignupMode, type User } from "./api.ts";
import { useI18n } from "./i18n.ts";
import { passwordWords } from "./password-words.ts";
import "./account.css";

/**
 * The sign-up page (`/sign-up`): a new workshop and its boss, who is signed in at once. It asks
 * the server whether this Weft takes sign-ups (`SIGNUP`), and by invitation takes the code, filled
 * in from a link's `#invite=`.
 */
export function SignUpPage({ onSignedIn }: { onSignedIn: (user: User) => void }) {
  const { t, lang, setLang } = useI18n();
  const w = accountWords(lang);
  const pw = passwordWords(lang);
  const [mode, setMode] = useState<SignupMode | null>(null);
  const [workshopName, setWorkshopName] = useState("");
  const [name, setName] = useState("");
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [invite, setInvite] = useState(() => fragmentValue(location.hash, "invite") ?? "");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    api
      .signupMode()
      .then((r) => setMode(r.signup))
      .catch(() => setError(t.unreachable));
  }, [t]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { user } = await api.signUp({
        workshop_name: workshopName.trim(),
        name: name.trim(),
        username: username.trim(),
        password,
        ...(mode === "invite" ? { invite_code: invite.trim() } : {}),
      });
      onSignedIn(user);
    } catch (failure) {
      setError(accountErrorText(failure, pw));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="sign-in">
      <form onSubmit={(e) => void submit(e)} aria-labelledby="sign-up-title">
        <h1 id="sign-up-title">{w.signUpTitle}</h1>
        {mode === "closed" ? (
          <p className="notice">{w.signupClosed}</p>
        ) : (
          <>
            <p className="muted">{w.signUpLead}</p>
            {mode === "invite" && <p className="notice">{w.inviteLead}</p>}
            <label>
              {w.workshopName}
              <input
                name="workshop_name"
                required
                maxLength={100}
                value={workshopName}
                onChange={(e) => setWorkshopName(e.target.value)}
              />
            </label>
            <label>
              {w.yourName}
              <input
                name="name"
                autoComplete="name"
                required
                maxLength={100}
                value={name}
                onChange={(e) => setName(e.target.value)}
              />
            </label>
            <label>
              {w.username}
              <input
                name="username"
                autoComplete="username"
                autoCapitalize="none"
                spellCheck={false}
                required
                maxLength={32}
                value={username}
                onChange={(e) => setUsername(e.target.value)}
              />
            </label>
            <label>
              {w.password}
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
            {mode === "invite" && (
              <label>
                {w.inviteCode}
                <input
                  name="invite_code"
                  autoComplete="off"
                  autoCapitalize="characters"
                  spellCheck={false}
                  required
                  maxLength={64}
                  value={invite}
                  onChange={(e) => setInvite(e.target.value)}
                />
              </label>
            )}
            {error && (
              <p className="error-text" role="alert">
                {error}
              </p>
            )}
            <button type="submit" className="primary" disabled={busy || mode === null}>
              {busy ? w.creatingWorkshop : w.createWorkshop}
            </button>
          </>
        )}
        <a href="/">{w.toSignIn}</a>
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
