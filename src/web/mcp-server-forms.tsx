import { useState } from "react";
import type { McpServer, NewMcpServer } from "./api.ts";
import { useI18n } from "./i18n.ts";
import { changesOf, type HeaderRow, type McpServerChanges } from "./server-changes.ts";

const NAME = "^[a-z0-9_\\-]{1,32}$";

/** Header rows: a name and a write-only value each. A stored header's name is fixed and its value optional. */
function HeaderRows({ headers, onChange }: { headers: HeaderRow[]; onChange: (headers: HeaderRow[]) => void }) {
  const { t } = useI18n();
  const set = (i: number, change: Partial<HeaderRow>) => onChange(headers.map((h, j) => (j === i ? { ...h, ...change } : h)));
  return (
    <>
      {headers.map((h, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their position.
        <div className="mcp-header" key={i}>
          <input
            aria-label={t.headerName}
            value={h.name}
            maxLength={64}
            readOnly={h.stored}
            required={!h.stored && h.value !== ""}
            onChange={(e) => set(i, { name: e.target.value })}
          />
          <input
            aria-label={t.headerValue}
            type="password"
            autoComplete="off"
            placeholder={h.stored ? t.keepValue : undefined}
            required={!h.stored && h.name.trim() !== ""}
            value={h.value}
            maxLength={4096}
            onChange={(e) => set(i, { value: e.target.value })}
          />
          <button
            type="button"
            className="icon"
            aria-label={t.removeHeader(i + 1)}
            onClick={() => onChange(headers.filter((_, j) => j !== i))}
          >
            ×
          </button>
        </div>
      ))}
      <button type="button" className="secondary" onClick={() => onChange([...headers, { name: "", value: "" }])}>
        {t.addHeader}
      </button>
    </>
  );
}

/** The form that registers a server; header values go to the server and are not kept here afterwards. */
export function AddServer({ add }: { add: (server: NewMcpServer) => Promise<boolean> }) {
  const { t } = useI18n();
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [auth, setAuth] = useState<NewMcpServer["auth"]>("headers");
  const [headers, setHeaders] = useState<HeaderRow[]>([]);
  const [enabled, setEnabled] = useState(true);
  const [expose, setExpose] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setBusy(true);
    const filled = auth === "headers" ? headers.filter((h) => h.name.trim()) : [];
    const ok = await add({
      name,
      url: url.trim(),
      headers: filled.length ? Object.fromEntries(filled.map((h) => [h.name.trim(), h.value])) : undefined,
      enabled,
      expose_on_mcp: expose,
      auth,
    });
    setBusy(false);
    if (ok) {
      setName("");
      setUrl("");
      setHeaders([]);
    }
  };

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
      <fieldset className="mcp-auth">
        <legend>{t.authMethod}</legend>
        <label className="check">
          <input type="radio" name="auth" checked={auth === "headers"} onChange={() => setAuth("headers")} />
          {t.authHeaders}
        </label>
        <label className="check">
          <input type="radio" name="auth" checked={auth === "oauth"} onChange={() => setAuth("oauth")} />
          {t.authOAuth}
        </label>
      </fieldset>
      {auth === "headers" ? <HeaderRows headers={headers} onChange={setHeaders} /> : <p className="muted">{t.oauthHint}</p>}
      <label className="check">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        {t.enabled}
      </label>
      <label className="check">
        <input type="checkbox" checked={expose} onChange={(e) => setExpose(e.target.checked)} />
        {t.exposeOnMcp}
      </label>
      <button type="submit" className="primary" disabled={busy}>
        {busy ? t.adding : auth === "oauth" ? t.addAndSignIn : t.addServer}
      </button>
    </form>
  );
}

/** Edits a server in place: its URL, its headers (values write-only, blank keeps), and whether /mcp offers it. */
export function EditServer({
  server,
  save,
  onDone,
}: {
  server: McpServer;
  save: (changes: McpServerChanges) => Promise<string | null>;
  onDone: () => void;
}) {
  const { t } = useI18n();
  const [url, setUrl] = useState(server.url);
  const [headers, setHeaders] = useState<HeaderRow[]>(server.header_names.map((name) => ({ name, value: "", stored: true })));
  const [expose, setExpose] = useState(server.expose_on_mcp);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    const changes = changesOf(server, { url: url.trim(), headers, expose });
    if (Object.keys(changes).length === 0) return onDone();
    setBusy(true);
    const refused = await save(changes);
    setBusy(false);
    if (refused) setError(refused);
    else onDone();
  };

  return (
    <form
      className="mcp-add mcp-edit"
      aria-label={t.editServer(server.name)}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label>
        {t.serverUrl}
        <input name="url" type="url" required maxLength={2048} value={url} onChange={(e) => setUrl(e.target.value)} />
      </label>
      {server.auth === "oauth" ? (
        url.trim() !== server.url && <p className="muted">{t.urlNeedsSignIn}</p>
      ) : (
        <HeaderRows headers={headers} onChange={setHeaders} />
      )}
      <label className="check">
        <input type="checkbox" checked={expose} onChange={(e) => setExpose(e.target.checked)} />
        {t.exposeOnMcp}
      </label>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <div className="mcp-actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t.saving : t.save}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          {t.cancel}
        </button>
      </div>
    </form>
  );
}
