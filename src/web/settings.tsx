import { useEffect, useRef, useState } from "react";
import type { McpServer } from "./api.ts";
import { useI18n } from "./i18n.ts";
import { type TestResult, useMcpServers } from "./use-mcp-servers.ts";

type Hooks = ReturnType<typeof useMcpServers>;
type Header = { name: string; value: string };

const NAME = "^[a-z0-9_\\-]{1,32}$";

/** The form that registers a server; header values go to the server and are not kept here afterwards. */
function AddServer({ add }: { add: Hooks["add"] }) {
  const { t } = useI18n();
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [headers, setHeaders] = useState<Header[]>([]);
  const [enabled, setEnabled] = useState(true);
  const [expose, setExpose] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setBusy(true);
    const filled = headers.filter((h) => h.name.trim());
    const ok = await add({
      name,
      url: url.trim(),
      headers: filled.length ? Object.fromEntries(filled.map((h) => [h.name.trim(), h.value])) : undefined,
      enabled,
      expose_on_mcp: expose,
    });
    setBusy(false);
    if (ok) {
      setName("");
      setUrl("");
      setHeaders([]);
    }
  };
  const setHeader = (i: number, change: Partial<Header>) =>
    setHeaders((list) => list.map((h, j) => (j === i ? { ...h, ...change } : h)));

  return (
    <form
      className="mcp-add"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h3>{t.addServer}</h3>
      <label>
        {t.serverName}
        <input name="name" required pattern={NAME} maxLength={32} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        {t.serverUrl}
        <input name="url" type="url" required maxLength={2048} value={url} onChange={(e) => setUrl(e.target.value)} />
      </label>
      {headers.map((h, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their position.
        <div className="mcp-header" key={i}>
          <input
            aria-label={t.headerName}
            value={h.name}
            maxLength={64}
            onChange={(e) => setHeader(i, { name: e.target.value })}
          />
          <input
            aria-label={t.headerValue}
            type="password"
            autoComplete="off"
            value={h.value}
            maxLength={4096}
            onChange={(e) => setHeader(i, { value: e.target.value })}
          />
          <button
            type="button"
            className="icon"
            aria-label={t.removeHeader(i + 1)}
            onClick={() => setHeaders((list) => list.filter((_, j) => j !== i))}
          >
            ×
          </button>
        </div>
      ))}
      <button type="button" className="secondary" onClick={() => setHeaders((list) => [...list, { name: "", value: "" }])}>
        {t.addHeader}
      </button>
      <label className="check">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        {t.enabled}
      </label>
      <label className="check">
        <input type="checkbox" checked={expose} onChange={(e) => setExpose(e.target.checked)} />
        {t.exposeOnMcp}
      </label>
      <button type="submit" className="primary" disabled={busy}>
        {busy ? t.adding : t.addServer}
      </button>
    </form>
  );
}

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
  const test = hooks.tests[server.id];
  const { health } = server;
  return (
    <li className="mcp-server" data-server-name={server.name} data-enabled={String(server.enabled)}>
      <div className="mcp-title">
        <strong>{server.name}</strong>
        <span className={`badge health-${health.status}`}>{t.health[health.status] ?? health.status}</span>
        {health.tool_count !== null && <span className="muted">{t.toolCount(health.tool_count)}</span>}
        <span className="muted">{server.enabled ? t.isEnabled : t.isDisabled}</span>
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
      <TestOutcome result={test} />
      {confirming ? (
        <div className="mcp-actions confirming">
          <span>{t.confirmRemove(server.name)}</span>
          <button type="button" className="danger" onClick={() => void hooks.remove(server.id)}>
            {t.delete}
          </button>
          {/* biome-ignore lint/a11y/noAutofocus: the question appears because the user asked to delete. */}
          <button type="button" className="secondary" autoFocus onClick={() => setConfirming(false)}>
            {t.cancel}
          </button>
        </div>
      ) : (
        <div className="mcp-actions">
          <button type="button" className="secondary" disabled={test === "running"} onClick={() => void hooks.test(server.id)}>
            {test === "running" ? t.testing : t.test}
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

/** The settings view for a boss or admin: the workshop's external MCP servers. */
export function Settings({ onClose, onUnauthorized }: { onClose: () => void; onUnauthorized: () => void }) {
  const { t } = useI18n();
  const hooks = useMcpServers(onUnauthorized);
  const heading = useRef<HTMLHeadingElement>(null);
  // Keyboard users land on the view they opened; Esc (outside the form) goes back to the chat.
  useEffect(() => {
    heading.current?.focus();
    const closeOnEscape = (event: KeyboardEvent) => {
      // Not from inside the add form: Esc there must not throw away what was typed.
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
          {t.mcpServers}
        </h2>
        <button type="button" className="secondary" onClick={onClose}>
          {t.backToChat}
        </button>
      </div>
      <p className="muted">{t.mcpLead}</p>
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
