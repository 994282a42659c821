import { type FormEvent, type ReactNode, useState } from "react";
import type { ProcessView, StyleView } from "./api.ts";
import { type Propose, yuanOf } from "./business-steps.ts";
import { businessWords } from "./business-words.ts";
import { useI18n } from "./i18n.ts";

/**
 * 车间资料 → 工序和单价: each style's processes with today's price (and a change set for a later
 * day), a price changed from a day (today unless said; records before it keep their price), and
 * a new process.
 */
export function BusinessPrices({
  styles,
  today,
  propose,
  status,
  locked,
}: {
  styles: StyleView[];
  today: string;
  propose: Propose;
  status: ReactNode;
  locked: boolean;
}) {
  const { lang } = useI18n();
  const w = businessWords(lang);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <section className="business-part" aria-labelledby="business-prices">
      <h4 id="business-prices">{w.prices}</h4>
      {status}
      {styles.map((s) => (
        <details key={s.id} className="business-style" data-style-id={s.id}>
          <summary>
            {s.code} {s.name}
          </summary>
          <ul className="business-list">
            {s.processes.map((p) => (
              <li key={p.id} data-process-id={p.id} data-process={p.name}>
                <div className="business-row">
                  <strong>{p.name}</strong>
                  <span className="business-price">{w.priceNow(p.unit_price.yuan)}</span>
                  {p.next_price && <span className="muted">{w.nextPrice(p.next_price.unit_price.yuan, p.next_price.from)}</span>}
                  {!p.active && <span className="badge inactive">{w.disabled}</span>}
                </div>
                {open === p.id ? (
                  <PriceForm
                    style={s}
                    process={p}
                    today={today}
                    locked={locked}
                    propose={propose}
                    onClose={() => setOpen(null)}
                  />
                ) : (
                  <div className="mcp-actions">
                    <button type="button" className="secondary" disabled={locked} onClick={() => setOpen(p.id)}>
                      {w.changePrice}
                    </button>
                  </div>
                )}
              </li>
            ))}
          </ul>
          <AddProcess style={s} locked={locked} propose={propose} />
        </details>
      ))}
    </section>
  );
}

function PriceForm({
  style,
  process,
  today,
  locked,
  propose,
  onClose,
}: {
  style: StyleView;
  process: ProcessView;
  today: string;
  locked: boolean;
  propose: Propose;
  onClose: () => void;
}) {
  const { lang } = useI18n();
  const w = businessWords(lang);
  const [price, setPrice] = useState(process.unit_price.yuan);
  const [from, setFrom] = useState(today);
  const [problem, setProblem] = useState<string | null>(null);
  const send = async (event: FormEvent) => {
    event.preventDefault();
    const yuan = yuanOf(price);
    if (yuan === null) return setProblem(w.badPrice);
    setProblem(null);
    const change = { change: "price", style: style.id, process: process.id, unit_price: yuan, date: from || today };
    if (await propose("prices", change, process.version)) onClose();
  };
  return (
    <form className="mcp-add business-form" aria-label={`${w.changePrice} ${process.name}`} onSubmit={(e) => void send(e)}>
      <label>
        <span>{w.unitPrice}</span>
        <input name="unit_price" inputMode="decimal" required value={price} onChange={(e) => setPrice(e.target.value)} />
      </label>
      <label>
        <span>{w.fromDate}</span>
        <input name="date" type="date" required value={from} onChange={(e) => setFrom(e.target.value)} />
      </label>
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
      <div className="mcp-actions">
        <button type="submit" className="primary" disabled={locked}>
          {w.submit}
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          {w.cancel}
        </button>
      </div>
    </form>
  );
}

function AddProcess({ style, locked, propose }: { style: StyleView; locked: boolean; propose: Propose }) {
  const { lang } = useI18n();
  const w = businessWords(lang);
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [price, setPrice] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  if (!open) {
    return (
      <div className="mcp-actions">
        <button type="button" className="secondary" disabled={locked} onClick={() => setOpen(true)}>
          {w.addProcess}
        </button>
      </div>
    );
  }
  const send = async (event: FormEvent) => {
    event.preventDefault();
    const yuan = yuanOf(price);
    if (yuan === null) return setProblem(w.badPrice);
    setProblem(null);
    if (await propose("prices", { change: "process_add", style: style.id, name: name.trim(), unit_price: yuan })) {
      setOpen(false);
      setName("");
      setPrice("");
    }
  };
  return (
    <form className="mcp-add business-form" aria-label={`${w.addProcess} ${style.name}`} onSubmit={(e) => void send(e)}>
      <label>
        <span>{w.processName}</span>
        <input name="name" required maxLength={50} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        <span>{w.unitPrice}</span>
        <input name="unit_price" inputMode="decimal" required value={price} onChange={(e) => setPrice(e.target.value)} />
      </label>
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
      <div className="mcp-actions">
        <button type="submit" className="primary" disabled={locked}>
          {w.submit}
        </button>
        <button type="button" className="secondary" onClick={() => setOpen(false)}>
          {w.cancel}
        </button>
      </div>
    </form>
  );
}
