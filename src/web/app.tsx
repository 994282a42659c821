import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { accountPageOfPath } from "./account-page-path.ts";
import { api, type User } from "./api.ts";
import { ConfirmPage } from "./confirm-page.tsx";
import { actionIdOfPath } from "./confirm-page-path.ts";
import { applyLang, I18nContext, initialLang, type Lang, messagesFor } from "./i18n.ts";
import { LoadBoundary } from "./load-failed.tsx";
import { SignIn } from "./sign-in.tsx";
import { readSignInReturn, signInReturnText } from "./sign-in-return.ts";

// The chat, and the AI SDK under it, are a chunk of their own so that the sign-in screen does not
// wait for them. The page asks for it at once, beside asking who is signed in: most visits are by
// someone already signed in, and anyone on the sign-in screen needs it next.
const loadChatShell = () => import("./chat-shell.tsx");
const ChatShell = lazy(() => loadChatShell().then((m) => ({ default: m.ChatShell })));

// The sign-up page and the page a one-time set-password link opens: each its own chunk, fetched only there.
const SignUpPage = lazy(() => import("./sign-up.tsx").then((m) => ({ default: m.SignUpPage })));
const SetPasswordPage = lazy(() => import("./set-password.tsx").then((m) => ({ default: m.SetPasswordPage })));

const Checking = () => <p className="muted center">…</p>;

type Auth =
  | { state: "checking" }
  | { state: "signed-out"; expired?: boolean; notice?: string; username?: string }
  | { state: "signed-in"; user: User };

/** The whole UI: the language, and who is signed in (asked of the server once, then kept in state). */
export function App() {
  const [lang, setLangState] = useState<Lang>(initialLang);
  const [auth, setAuth] = useState<Auth>({ state: "checking" });
  // Back from an MCP server's OAuth provider: read once, shown to whoever signs in, never on a reload.
  const [signInReturn, setSignInReturn] = useState(() => readSignInReturn(location.search));
  // A confirm page's link (`/actions/:id`) shows that action, after sign-in, instead of the chat.
  const [pageActionId] = useState(() => actionIdOfPath(location.pathname));
  // `/sign-up` and `/set-password` are shown whoever is signed in; once done, the address becomes `/`.
  const [accountPage, setAccountPage] = useState(() => accountPageOfPath(location.pathname));
  const leaveAccountPage = useCallback((next: Auth) => {
    history.replaceState(null, "", "/");
    setAccountPage(null);
    setAuth(next);
  }, []);

  const setLang = useCallback((next: Lang) => {
    applyLang(next);
    setLangState(next);
  }, []);
  const i18n = useMemo(() => ({ lang, t: messagesFor(lang), setLang }), [lang, setLang]);

  useEffect(() => {
    if (new URLSearchParams(location.search).has("mcp_sign_in"))
      history.replaceState(null, "", location.pathname + location.hash);
  }, []);

  useEffect(() => {
    // Errors surface where the chat renders, through LoadBoundary.
    loadChatShell().catch(() => undefined);
    applyLang(initialLang());
    api
      .me()
      .then(({ user }) => setAuth({ state: "signed-in", user }))
      .catch(() => setAuth({ state: "signed-out" }));
  }, []);

  // Stable across renders and languages: the chat screen's effects depend on it.
  const onUnauthorized = useCallback(() => setAuth({ state: "signed-out", expired: true }), []);
  const signOut = useCallback(async () => {
    try {
      await api.logout();
    } finally {
      setAuth({ state: "signed-out" });
      setSignInReturn(null);
      history.replaceState(null, "", location.pathname);
    }
  }, []);

  if (accountPage) {
    return (
      <I18nContext.Provider value={i18n}>
        <LoadBoundary>
          <Suspense fallback={<Checking />}>
            {accountPage === "sign-up" ? (
              <SignUpPage onSignedIn={(user) => leaveAccountPage({ state: "signed-in", user })} />
            ) : (
              <SetPasswordPage onDone={(username, notice) => leaveAccountPage({ state: "signed-out", username, notice })} />
            )}
          </Suspense>
        </LoadBoundary>
      </I18nContext.Provider>
    );
  }

  return (
    <I18nContext.Provider value={i18n}>
      {auth.state === "checking" && <Checking />}
      {auth.state === "signed-out" && (
        <SignIn
          notice={
            auth.notice ??
            (auth.expired ? i18n.t.sessionExpired : signInReturn ? signInReturnText(i18n.t, signInReturn) : undefined)
          }
          initialUsername={auth.username}
          onSignedIn={(user) => setAuth({ state: "signed-in", user })}
        />
      )}
      {auth.state === "signed-in" && pageActionId && <ConfirmPage actionId={pageActionId} onUnauthorized={onUnauthorized} />}
      {auth.state === "signed-in" && !pageActionId && (
        <LoadBoundary>
          <Suspense fallback={<Checking />}>
            <ChatShell
              user={auth.user}
              signInReturn={signInReturn}
              onSignOut={() => void signOut()}
              onUnauthorized={onUnauthorized}
            />
          </Suspense>
        </LoadBoundary>
      )}
    </I18nContext.Provider>
  );
}
