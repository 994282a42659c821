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
 * The settings view, for everyone signed in, what a person uses first: a boss's or an admin's
 * workshop (people, recent writes, knowledge files), their password, a boss's API keys; then under
 * 高级 what connects other tools: connected apps, a staff member's API keys, the workshop's external
 * MCP servers.
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
  const workshop = (part: "main" | "advanced") => (
    <LoadBoundary>
      <Suspense fallback={<p className="muted">{t.loading}</p>}>
        <WorkshopSettings user={user} part={part} onUnauthorized={onUnauthorized} signInReturn={signInReturn} />
      </Suspense>
    </LoadBoundary>
  );
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
      {canConfigure && workshop("main")}
      <PasswordSettings onUnauthorized={onUnauthorized} />
      {canConfigure && <ApiKeys user={user} onUnauthorized={onUnauthorized} />}
      {/* For connecting other tools (Cursor, Claude Code, MCP servers): after what a workshop uses every day. */}
      <section className="settings-advanced" aria-labelledby="settings-advanced">
        <h2 id="settings-advanced">{t.advanced}</h2>
        <ConnectedClients onUnauthorized={onUnauthorized} />
        {!canConfigure && <ApiKeys user={user} onUnauthorized={onUnauthorized} />}
        {canConfigure && workshop("advanced")}
      </section>
    </section>
  );
}
