import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, api, type EmployeeView, type OrderView, type StyleView, type WorkshopView } from "./api.ts";
import { BusinessAdjustments } from "./business-adjustments.tsx";
import { BusinessEmployees } from "./business-employees.tsx";
import { BusinessImport } from "./business-import.tsx";
import { BusinessOrders } from "./business-orders.tsx";
import { BusinessPrices } from "./business-prices.tsx";
import { type Hold, type Part, type Propose, refusalText } from "./business-steps.ts";
import { businessWords } from "./business-words.ts";
import { BusinessWorkshop } from "./business-workshop.tsx";
import { useI18n } from "./i18n.ts";
import "./business.css";
import type { PendingAction } from "../shapes.ts";

interface Data {
  workshop: WorkshopView;
  employees: EmployeeView[];
  styles: StyleView[];
  orders: OrderView[];
  today: string;
}

/**
 * Settings → 车间资料, for a boss or the workshop's admin: the workshop's name and time zone,
 * employees, styles with their processes and prices, open orders. A form prepares the change (`POST /api/business/changes`, with the version it
 * read as `If-Match`); the pending action's summary and preview (old → new) are shown with 确认 and
 * 取消, and only 确认 writes it (`{ via: "settings" }`: the audit's path), then the lists are read again.
 */
export function BusinessSettings({ onUnauthorized }: { onUnauthorized: () => void }) {
  const { lang } = useI18n();
  const w = businessWords(lang);
  const [data, setData] = useState<Data | null>(null);
  const [error, setError] = useState<{ part: Part | null; text: string } | null>(null);
  const [pending, setPending] = useState<{ part: Part; action: PendingAction } | null>(null);
  const [notice, setNotice] = useState<{ part: Part; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const fail = useCallback(
    (part: Part | null, e: unknown) => {
      if (e instanceof ApiError && e.status === 401) onUnauthorized();
      else setError({ part, text: refusalText(e, w) });
    },
    [onUnauthorized, w],
  );
  const load = useCallback(() => {
    Promise.all([api.workshop(), api.employees(), api.styles(), api.orders()]).then(
      ([ws, e, s, o]) => setData({ workshop: ws, employees: e.employees, styles: s.styles, orders: o.orders, today: s.today }),
      (e) => fail(null, e),
    );
  }, [fail]);
  useEffect(load, [load]);

  const propose: Propose = async (part, change, version) => {
    setError(null);
    setNotice(null);
    try {
      setPending({ part, action: await api.prepareBusinessChange(change, version) });
      return true;
    } catch (e) {
      fail(part, e);
      return false;
    }
  };
  const hold: Hold = async (part, prepare) => {
    setError(null);
    setNotice(null);
    try {
      const action = await prepare();
      if (action) setPending({ part, action });
      return true;
    } catch (e) {
      fail(part, e);
      return false;
    }
  };
  const decide = async (decision: "confirm" | "cancel") => {
    if (!pending) return;
    setBusy(true);
    try {
      await api.decideAction(pending.action.action_id, decision, { via: "settings", lang });
      setNotice({ part: pending.part, text: decision === "confirm" ? w.written : w.cancelled });
    } catch (e) {
      fail(pending.part, e);
    } finally {
      setBusy(false);
      setPending(null);
      load();
    }
  };
  const status = (part: Part) => (
    <>
      {error?.part === part && (
        <p className="error-text" role="alert">
          {error.text}
        </p>
      )}
      {notice?.part === part && <p className="business-notice">{notice.text}</p>}
      {pending?.part === part && <ChangeCheck action={pending.action} busy={busy} decide={decide} />}
    </>
  );

  return (
    <section className="settings-section business" aria-labelledby="business-title">
      <h3 id="business-title">{w.title}</h3>
      <p className="muted">{w.lead}</p>
      {error?.part === null && (
        <p className="error-text" role="alert">
          {error.text}
        </p>
      )}
      {data === null ? (
        !error && <p className="muted">{w.loading}</p>
      ) : (
        <>
          <BusinessWorkshop workshop={data.workshop} propose={propose} status={status("workshop")} locked={pending !== null} />
          <BusinessEmployees
            employees={data.employees}
            propose={propose}
            status={status("employees")}
            locked={pending !== null}
          />
          <BusinessPrices
            styles={data.styles}
            today={data.today}
            propose={propose}
            status={status("prices")}
            locked={pending !== null}
          />
          <BusinessOrders orders={data.orders} propose={propose} status={status("orders")} locked={pending !== null} />
          <BusinessAdjustments
            employees={data.employees}
            today={data.workshop.today}
            propose={propose}
            status={status("adjustments")}
            locked={pending !== null}
          />
          <BusinessImport today={data.workshop.today} hold={hold} status={status("import")} locked={pending !== null} />
        </>
      )}
    </section>
  );
}

/** What a change will write, as the server prepared it (the words the audit keeps), with 确认 and 取消. */
function ChangeCheck({
  action,
  busy,
  decide,
}: {
  action: PendingAction;
  busy: boolean;
  decide: (decision: "confirm" | "cancel") => Promise<void>;
}) {
  const { lang } = useI18n();
  const w = businessWords(lang);
  const ref = useRef<HTMLElement>(null);
  // The check appears above the lists: on a phone the form that asked for it may be a screen away.
  useEffect(() => {
    ref.current?.scrollIntoView({ block: "center" });
    ref.current?.focus({ preventScroll: true });
  }, []);
  return (
    <section ref={ref} tabIndex={-1} className="business-check" aria-label={w.checkTitle} data-action-id={action.action_id}>
      <p>
        <strong>{action.summary}</strong>
      </p>
      {action.preview.length > 0 && (
        <dl>
          {action.preview.map((row) => (
            <div key={row.label}>
              <dt>{row.label}</dt>
              <dd>{row.value}</dd>
            </div>
          ))}
        </dl>
      )}
      <div className="mcp-actions">
        <button type="button" className="primary" disabled={busy} onClick={() => void decide("confirm")}>
          {busy ? w.writing : w.confirm}
        </button>
        <button type="button" className="secondary" disabled={busy} onClick={() => void decide("cancel")}>
          {w.cancel}
        </button>
      </div>
    </section>
  );
}
