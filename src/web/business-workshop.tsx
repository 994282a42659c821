import { type FormEvent, type ReactNode, useState } from "react";
import type { WorkshopView } from "./api.ts";
import { FormFooter } from "./business-form-footer.tsx";
import type { Propose } from "./business-steps.ts";
import { businessWords } from "./business-words.ts";
import { useI18n } from "./i18n.ts";

/**
 * 车间资料 → 车间: the name its people see it by and the time zone its days are counted in (which
 * day "today" is for a piece record, a price from a day, this month's pay). A change is checked by
 * the server, which shows today's date in both zones, before it is written.
 */
export function BusinessWorkshop({
  workshop,
  propose,
  status,
  locked,
}: {
  workshop: WorkshopView;
  propose: Propose;
  status: ReactNode;
  locked: boolean;
}) {
  const { lang } = useI18n();
  const w = businessWords(lang);
  const [editing, setEditing] = useState(false);
  return (
    <section className="business-part" aria-labelledby="business-workshop">
      <h4 id="business-workshop">{w.workshop}</h4>
      {status}
      <dl className="business-facts">
        <div>
          <dt>{w.workshopName}</dt>
          <dd>{workshop.name}</dd>
        </div>
        <div>
          <dt>{w.timeZone}</dt>
          <dd>
            {workshop.time_zone} <span className="muted">({w.todayThere(workshop.today)})</span>
          </dd>
        </div>
      </dl>
      {editing ? (
        <WorkshopForm workshop={workshop} locked={locked} propose={propose} onClose={() => setEditing(false)} />
      ) : (
        <div className="mcp-actions">
          <button type="button" className="secondary" disabled={locked} onClick={() => setEditing(true)}>
            {w.editWorkshop}
          </button>
        </div>
      )}
    </section>
  );
}

/** An IANA zone as a person types it: Region/City, or UTC. The server checks that it exists. */
const ZONE = /^(?:UTC|[A-Za-z]+(?:\/[A-Za-z0-9_+-]+){1,2})$/;

function WorkshopForm({
  workshop,
  locked,
  propose,
  onClose,
}: {
  workshop: WorkshopView;
  locked: boolean;
  propose: Propose;
  onClose: () => void;
}) {
  const { lang } = useI18n();
  const w = businessWords(lang);
  const [name, setName] = useState(workshop.name);
  const [zone, setZone] = useState(workshop.time_zone);
  const [problem, setProblem] = useState<string | null>(null);
  const send = async (event: FormEvent) => {
    event.preventDefault();
    const [newName, newZone] = [name.trim(), zone.trim()];
    if (!ZONE.test(newZone)) return setProblem(w.badTimeZone);
    if (newName === workshop.name && newZone === workshop.time_zone) return setProblem(w.nothingChanged);
    setProblem(null);
    const change = {
      change: "workshop",
      ...(newName !== workshop.name ? { name: newName } : {}),
      ...(newZone !== workshop.time_zone ? { time_zone: newZone } : {}),
    };
    if (await propose("workshop", change, workshop.version)) onClose();
  };
  return (
    <form className="mcp-add business-form" aria-label={w.editWorkshop} onSubmit={(e) => void send(e)}>
      <label>
        <span>{w.workshopName}</span>
        <input name="name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        <span>{w.timeZone}</span>
        <input
          name="time_zone"
          required
          maxLength={60}
          list="business-zones"
          value={zone}
          onChange={(e) => setZone(e.target.value)}
        />
        <datalist id="business-zones">
          {["Asia/Shanghai", "Asia/Hong_Kong", "Asia/Taipei", "Asia/Ho_Chi_Minh", "Asia/Dhaka", "Europe/Rome", "UTC"].map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
      </label>
      <FormFooter problem={problem} locked={locked} onCancel={onClose} />
    </form>
  );
}
