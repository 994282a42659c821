import { lazy, Suspense, useEffect, useRef } from "react";
import type { User } from "./api.ts";
import { ApiKeys } from "./api-keys.tsx";
import { ConnectedClients } from "./connected-clients.tsx";
import { useI18n } from "./i18n.ts";
import { LoadBoundary } from "./load-failed.tsx";
import { PasswordSettings } from "./password-settings.tsx";
import "./settings.css";
import type { SignInReturn } from "./sign-in-return.ts";

// The workshop's part (recent writes, MCP servers) loads only for a boss or an admin.
const WorkshopSettings = lazy(() => import("./workshop-settings.tsx").then((m) => ({ default: m.WorkshopSettings })));

/**
 * The settings view, for everyone signed in: what is theirs (their password, connected apps, API
 * keys; an admin's lists hold the workshop's) and, for a boss or an admin, the workshop's people,
 * recent writes and external MCP servers.
 */
export function Settings({
  user,
  onClose,
  onUnauthorized,
  signInReturn,
}: {
  user: User;
  onClose: () => void;
  onUnauthorized: () => void;
  signInReturn: SignInReturn | null;
}) {
  const { t } = useI18n();
  const heading = useRef<HTMLHeadingElement>(null);
  const canConfigure = user.role === "boss" || user.role === "admin";
  // Keyboard users land on the view they opened; Esc (outside a form) goes back to the chat.
  useEffect(() => {
    heading.current?.focus();
    const closeOnEscape = (event: KeyboardEvent) => {
      // Not from inside a form: Esc there must not throw away what was typed.
      const inForm = event.target instanceof Element && event.target.closest("form") !== null;
      if (event.key === "Escape" && !event.defaultPrevented && !inForm) onClose();
    };
    document.addEventListener("keydown", closeOnEscape);
    return () => document.removeEventListener("keydown", closeOnEscape);
  }, [onClose]);
  return (
    <section className="settings" aria-labelledby="settings-title">
      <div className="settings-head">
        <h2 id="settings-title" ref={heading} tabIndex={-1}>
          {t.settings}
        </h2>
        <button type="button" className="secondary" onClick={onClose}>
          {t.backToChat}
        </button>
      </div>
      {canConfigure && (
        <LoadBoundary>
          <Suspense fallback={<p className="muted">{t.loading}</p>}>
            <WorkshopSettings user={user} onUnauthorized={onUnauthorized} signInReturn={signInReturn} />
          </Suspense>
        </LoadBoundary>
      )}
      <PasswordSettings onUnauthorized={onUnauthorized} />
      <ConnectedClients onUnauthorized={onUnauthorized} />
      <ApiKeys user={user} onUnauthorized={onUnauthorized} />
    </section>
  );
}
