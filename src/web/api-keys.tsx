import { type FormEvent, useCallback, useEffect, useState } from "react";
import { type ApiKey, api, type ConfirmBy, type User } from "./api.ts";
import { AskAgain } from "./ask-again.tsx";
import { ConfirmByChoice } from "./confirm-by-choice.tsx";
import { useI18n } from "./i18n.ts";
import { settingsWords, shortTime } from "./settings-words.ts";
import { useRequestError } from "./use-request-error.ts";

/** A key just created: its secret, held only in this view's memory until the person dismisses it. */
interface Created {
  name: string;
  key: string;
}

/**
 * The person's API keys (an admin's list holds the workshop's, each with whose it is): create one
 * (its secret shown once), choose who says yes to the writes it prepares, and revoke it.
 */
export function ApiKeys({ user, onUnauthorized }: { user: User; onUnauthorized: () => void }) {
  const { t, lang } = useI18n();
  const w = settingsWords(lang);
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const { error, setError, fail } = useRequestError(onUnauthorized);
  const [created, setCreated] = useState<Created | null>(null);
  const load = useCallback(() => {
    api.listKeys().then((r) => setKeys(r.keys.filter((k) => k.revoked_at === null)), fail);
  }, [fail]);
  useEffect(load, [load]);
  const replace = (key: ApiKey) => setKeys((list) => (list ?? []).map((k) => (k.id === key.id ? key : k)));

  const create = async (name: string): Promise<boolean> => {
    setError(null);
    try {
      const { key, ...summary } = await api.createKey(name);
      setCreated({ name: summary.name, key });
      setKeys((list) => [summary, ...(list ?? [])]);
      return true;
    } catch (e) {
      fail(e);
      return false;
    }
  };
  const act = (request: Promise<ApiKey>, after: (key: ApiKey) => void): Promise<void> => {
    setError(null);
    return request.then(after, fail);
  };

  const whose = keys?.some((k) => k.user_id !== user.id) ?? false;
  return (
    <section className="settings-section" aria-labelledby="keys-title">
      <h3 id="keys-title">{w.apiKeys}</h3>
      <p className="muted">{w.keysLead}</p>
      {whose && <p className="muted">{w.workshopKeysLead}</p>}
      <p className="muted">{w.confirmByLead}</p>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {created && <NewKey created={created} onDone={() => setCreated(null)} />}
      <CreateKey create={create} />
      {keys === null ? (
        !error && <p className="muted">{t.loading}</p>
      ) : keys.length === 0 ? (
        <p className="muted">{w.noKeys}</p>
      ) : (
        <ul className="mcp-list api-keys">
          {keys.map((k) => (
            <KeyRow
              key={k.id}
              apiKey={k}
              showOwner={whose}
              setConfirmBy={(confirmBy) => act(api.setKeyConfirmBy(k.id, confirmBy), replace)}
              revoke={() => act(api.revokeKey(k.id), () => setKeys((list) => (list ?? []).filter((x) => x.id !== k.id)))}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function CreateKey({ create }: { create: (name: string) => Promise<boolean> }) {
  const { lang } = useI18n();
  const w = settingsWords(lang);
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    if (await create(name.trim())) setName("");
    setBusy(false);
  };
  return (
    <form className="key-create" onSubmit={(e) => void submit(e)}>
      <label>
        <span>{w.keyName}</span>
        <input className="key-name" value={name} maxLength={100} required onChange={(e) => setName(e.target.value)} />
      </label>
      <button type="submit" className="primary" disabled={busy || name.trim() === ""}>
        {busy ? w.creating : w.createKey}
      </button>
    </form>
  );
}

/** The secret of a key just created, with a copy button; gone for good once dismissed. */
function NewKey({ created, onDone }: { created: Created; onDone: () => void }) {
  const { lang } = useI18n();
  const w = settingsWords(lang);
  const [copy, setCopy] = useState<"idle" | "copied" | "failed">("idle");
  const copyKey = () => {
    navigator.clipboard.writeText(created.key).then(
      () => setCopy("copied"),
      () => setCopy("failed"),
    );
  };
  return (
    <div className="new-key" role="status">
      <p>{w.newKey(created.name)}</p>
      <div className="new-key-secret">
        <input
          className="new-key-value"
          readOnly
          aria-label={w.newKeyLabel}
          value={created.key}
          spellCheck={false}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" className="primary" onClick={copyKey}>
          {copy === "copied" ? w.copied : w.copy}
        </button>
      </div>
      {copy === "failed" && <p className="error-text">{w.copyFailed}</p>}
      <button type="button" className="secondary" onClick={onDone}>
        {w.savedIt}
      </button>
    </div>
  );
}

function KeyRow({
  apiKey: k,
  showOwner,
  setConfirmBy,
  revoke,
}: {
  apiKey: ApiKey;
  showOwner: boolean;
  setConfirmBy: (confirmBy: ConfirmBy) => Promise<void>;
  revoke: () => void;
}) {
  const { t, lang } = useI18n();
  const w = settingsWords(lang);
  const [confirming, setConfirming] = useState(false);
  return (
    <li className="mcp-server api-key" data-key-id={k.id} data-confirm-by={k.confirm_by}>
      <div className="mcp-title">
        <strong>{k.name}</strong>
        <code className="key-prefix">{w.keyPrefix(k.prefix)}</code>
        <span className="badge">{t.roles[k.role] ?? k.role}</span>
        {k.confirm_by !== "weft" && <span className={`badge confirm-by-${k.confirm_by}`}>{w.confirmByBadge[k.confirm_by]}</span>}
      </div>
      <div className="muted">
        {showOwner && `${k.user_name} · `}
        {w.keyCreated(shortTime(k.created_at, lang))} ·{" "}
        {k.last_used_at ? w.keyLastUsed(shortTime(k.last_used_at, lang)) : w.keyNeverUsed}
      </div>
      <ConfirmByChoice value={k.confirm_by} onChange={setConfirmBy} />
      {confirming ? (
        <AskAgain
          question={w.confirmRevokeKey(k.name)}
          actionLabel={t.revoke}
          cancelLabel={t.cancel}
          onAction={revoke}
          onCancel={() => setConfirming(false)}
        />
      ) : (
        <div className="mcp-actions">
          <button type="button" className="secondary" onClick={() => setConfirming(true)}>
            {t.revoke}
          </button>
        </div>
      )}
    </li>
  );
}
