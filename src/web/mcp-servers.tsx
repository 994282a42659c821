import { useState } from "react";
import type { McpServer } from "./api.ts";
import { AskAgain } from "./ask-again.tsx";
import { useI18n } from "./i18n.ts";
import { AddServer, EditServer } from "./mcp-server-forms.tsx";
import type { SignInReturn } from "./sign-in-return.ts";
import { type TestResult, useMcpServers } from "./use-mcp-servers.ts";

type Hooks = ReturnType<typeof useMcpServers>;
function TestOutcome({ result }: { result: TestResult | "running" | undefined }) {
  const { t } = useI18n();
  if (!result || result === "running") return null;
  if (!result.ok)
    return (
      <p className="mcp-test error-text" role="status">
        {t.testFailed}
        {result.error}
      </p>
    );
  return (
    <p className="mcp-test ok" role="status">
      {t.testOk(result.tools.length, result.latencyMs)}
      {result.tools.length > 0 && <span className="mcp-tools">{result.tools.join(", ")}</span>}
    </p>
  );
}

function ServerRow({ server, hooks }: { server: McpServer; hooks: Hooks }) {
  const { t } = useI18n();
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState(false);
  const [redirecting, setRedirecting] = useState(false);
  const test = hooks.tests[server.id];
  const signInError = hooks.signInErrors[server.id];
  const { health } = server;
  const needsSignIn = server.auth === "oauth" && health.status === "needs_sign_in";
  const signIn = async () => {
    setRedirecting(true);
    await hooks.signIn(server.id);
    setRedirecting(false);
  };
  return (
    <li className="mcp-server" data-server-name={server.name} data-enabled={String(server.enabled)}>
      <div className="mcp-title">
        <strong>{server.name}</strong>
        <span className={`badge health-${health.status}`}>{t.health[health.status] ?? health.status}</span>
        {health.tool_count !== null && <span className="muted">{t.toolCount(health.tool_count)}</span>}
        <span className="muted">{server.enabled ? t.isEnabled : t.isDisabled}</span>
        {server.auth === "oauth" && <span className="muted">{t.usesOAuth}</span>}
      </div>
      <div className="mcp-url">{server.url}</div>
      {server.header_names.length > 0 && (
        <div className="muted">
          {t.headerNames}: {server.header_names.join(", ")}
        </div>
      )}
      {health.status === "failing" && health.last_error && !test && (
        <p className="error-text">
          {t.lastError}
          {health.last_error}
        </p>
      )}
      {signInError && (
        <p className="error-text" role="alert">
          {t.signInStartFailed}
          {signInError}
        </p>
      )}
      {/* A server that needs signing in says so in its badge and its button; the failed test's words add nothing. */}
      <TestOutcome result={needsSignIn && test !== "running" && !test?.ok ? undefined : test} />
      {editing ? (
        <EditServer server={server} save={(changes) => hooks.update(server.id, changes)} onDone={() => setEditing(false)} />
      ) : confirming ? (
        <AskAgain
          question={t.confirmRemove(server.name)}
          actionLabel={t.delete}
          cancelLabel={t.cancel}
          onAction={() => void hooks.remove(server.id)}
          onCancel={() => setConfirming(false)}
        />
      ) : (
        <div className="mcp-actions">
          {needsSignIn && (
            <button type="button" className="primary" disabled={redirecting} onClick={() => void signIn()}>
              {redirecting ? t.redirecting : t.serverSignIn}
            </button>
          )}
          <button type="button" className="secondary" disabled={test === "running"} onClick={() => void hooks.test(server.id)}>
            {test === "running" ? t.testing : t.test}
          </button>
          <button type="button" className="secondary" onClick={() => setEditing(true)}>
            {t.edit}
          </button>
          <button type="button" className="secondary" onClick={() => void hooks.setEnabled(server.id, !server.enabled)}>
            {server.enabled ? t.disable : t.enable}
          </button>
          <button type="button" className="secondary" onClick={() => setConfirming(true)}>
            {t.delete}
          </button>
        </div>
      )}
    </li>
  );
}

/**
 * What the page says after the browser came back from a provider's sign-in, until dismissed; a
 * success is no longer claimed once that server's health says otherwise.
 */
function SignInNotice({
  signInReturn,
  servers,
  onDismiss,
}: {
  signInReturn: SignInReturn;
  servers: McpServer[] | null;
  onDismiss: () => void;
}) {
  const { t } = useI18n();
  const { outcome, serverId } = signInReturn;
  const server = servers?.find((s) => s.id === serverId);
  if (outcome === "ok" && server && server.health.status !== "ok") return null;
  return (
    <div className={`sign-in-notice ${outcome === "ok" ? "ok" : "error-text"}`} role="status">
      <span>{outcome === "ok" ? t.signInReturn.ok(server?.name) : t.signInReturn[outcome]}</span>
      <button type="button" className="secondary" onClick={onDismiss}>
        {t.dismiss}
      </button>
    </div>
  );
}

/** The workshop's external MCP servers (boss and admin): add, test, sign in, edit, enable or disable, delete. */
export function McpServers({ onUnauthorized, signInReturn }: { onUnauthorized: () => void; signInReturn: SignInReturn | null }) {
  const { t } = useI18n();
  const hooks = useMcpServers(onUnauthorized);
  const [notice, setNotice] = useState(signInReturn);
  return (
    <section className="settings-section" aria-labelledby="mcp-servers-title">
      <h3 id="mcp-servers-title">{t.mcpServers}</h3>
      <p className="muted">{t.mcpLead}</p>
      {notice && <SignInNotice signInReturn={notice} servers={hooks.servers} onDismiss={() => setNotice(null)} />}
      {hooks.error && (
        <p className="error-text" role="alert">
          {hooks.error}
        </p>
      )}
      {hooks.servers === null ? (
        <p className="muted">{t.loading}</p>
      ) : hooks.servers.length === 0 ? (
        <p className="muted">{t.noServers}</p>
      ) : (
        <ul className="mcp-list">
          {hooks.servers.map((s) => (
            <ServerRow key={s.id} server={s} hooks={hooks} />
          ))}
        </ul>
      )}
      <AddServer add={hooks.add} />
    </section>
  );
}
