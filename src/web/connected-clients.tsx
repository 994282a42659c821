import { useCallback, useEffect, useState } from "react";
import { api, type ConfirmBy, type Connection } from "./api.ts";
import { ConfirmByChoice } from "./confirm-by-choice.tsx";
import { useI18n } from "./i18n.ts";
import { useRequestError } from "./use-request-error.ts";

/**
 * The apps allowed to use Weft for the person over OAuth (an admin sees the workshop's, each with
 * whose it is): who says yes to the writes an app with write access prepares, and revoking one.
 */
export function ConnectedClients({ onUnauthorized }: { onUnauthorized: () => void }) {
  const { t } = useI18n();
  const [connections, setConnections] = useState<Connection[] | null>(null);
  const { error, fail } = useRequestError(onUnauthorized);
  const load = useCallback(() => {
    api.listConnections().then((r) => setConnections(r.connections), fail);
  }, [fail]);
  useEffect(load, [load]);
  const revoke = (id: string) => {
    api.revokeConnection(id).then(load, fail);
  };
  const setConfirmBy = (id: string, confirmBy: ConfirmBy): Promise<void> =>
    api
      .setConnectionConfirmBy(id, confirmBy)
      .then((changed) => setConnections((list) => (list ?? []).map((c) => (c.id === id ? changed : c))), fail);
  return (
    <section className="settings-section" aria-labelledby="connected-title">
      <h3 id="connected-title">{t.connectedClients}</h3>
      <p className="muted">{t.connectedLead}</p>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {connections === null ? (
        <p className="muted">{t.loading}</p>
      ) : connections.length === 0 ? (
        <p className="muted">{t.noConnections}</p>
      ) : (
        <ul className="mcp-list connected-clients">
          {connections.map((c) => (
            <li key={c.id} className="mcp-server" data-connection={c.id} data-confirm-by={c.confirm_by}>
              <div className="connection-about">
                <strong>{c.client_name}</strong>
                {/* An admin's list holds other people's apps too: say whose. */}
                {new Set(connections.map((x) => x.user_id)).size > 1 && <span> · {c.user_name}</span>} ·{" "}
                {t.connectionAccess[c.access]}
                <div className="muted">{t.connectedOn(c.created_at.slice(0, 10), c.redirect_host)}</div>
                {c.access === "write" && <ConfirmByChoice value={c.confirm_by} onChange={(next) => setConfirmBy(c.id, next)} />}
              </div>
              <button type="button" className="secondary" onClick={() => revoke(c.id)}>
                {t.revoke}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
