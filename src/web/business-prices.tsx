import { type FormEvent, type ReactNode, useState } from "react";
import type { ProcessView, StyleView } from "./api.ts";
import { FormFooter, OpenFormButton } from "./business-form-footer.tsx";
import { PriceHistory } from "./business-price-history.tsx";
import { type Propose, yuanOf } from "./business-steps.ts";
import { StyleForm } from "./business-styles.tsx";
import { businessWords } from "./business-words.ts";
import { useI18n } from "./i18n.ts";

/**
 * 车间资料 → 工序和单价: each style's processes with today's price (and a change set for a later
 * day) and, asked for, their price history; a price changed from a day (today unless said; records
 * before it keep their price); a process renamed, stopped or started again; a new process; a style
 * added or its code and name changed.
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
  // One form open at a time: which process (or style) and what for.
  const [open, setOpen] = useState<{ id: string; form: "price" | "rename" | "style" } | null>(null);
  const [histories, setHistories] = useState<ReadonlySet<string>>(new Set());
  const toggleHistory = (id: string) =>
    setHistories((shown) => {
      const next = new Set(shown);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const close = () => setOpen(null);
  return (
    <section className="business-part" aria-labelledby="business-prices">
      <h4 id="business-prices">{w.prices}</h4>
      {status}
      {styles.map((s) => (
        <details key={s.id} className="business-style" data-style-id={s.id}>
          <summary>
            {s.code} {s.name}
          </summary>
          {open?.id === s.id && open.form === "style" ? (
            <StyleForm style={s} locked={locked} propose={propose} onClose={close} />
          ) : (
            <div className="mcp-actions">
              <button type="button" className="secondary" disabled={locked} onClick={() => setOpen({ id: s.id, form: "style" })}>
                {w.editStyle}
              </button>
            </div>
          )}
          <ul className="business-list">
            {s.processes.map((p) => (
              <li key={p.id} data-process-id={p.id} data-process={p.name}>
                <div className="business-row">
                  <strong>{p.name}</strong>
                  <span className="business-price">{w.priceNow(p.unit_price.yuan)}</span>
                  {p.next_price && <span className="muted">{w.nextPrice(p.next_price.unit_price.yuan, p.next_price.from)}</span>}
                  {!p.active && <span className="badge inactive">{w.disabled}</span>}
                </div>
                {histories.has(p.id) && <PriceHistory process={p} />}
                {open?.id === p.id && open.form === "price" && (
                  <PriceForm style={s} process={p} today={today} locked={locked} propose={propose} onClose={close} />
                )}
                {open?.id === p.id && open.form === "rename" && (
                  <RenameProcess style={s} process={p} locked={locked} propose={propose} onClose={close} />
                )}
                {open?.id !== p.id && (
                  <div className="mcp-actions">
                    <button
                      type="button"
                      className="secondary"
                      disabled={locked}
                      onClick={() => setOpen({ id: p.id, form: "price" })}
                    >
                      {w.changePrice}
                    </button>
                    <button
                      type="button"
                      className="secondary"
                      disabled={locked}
                      onClick={() => setOpen({ id: p.id, form: "rename" })}
                    >
                      {w.rename}
                    </button>
                    <button
                      type="button"
                      className="secondary"
                      disabled={locked}
                      onClick={() =>
                        void propose(
                          "prices",
                          { change: p.active ? "process_disable" : "process_enable", style: s.id, process: p.id },
                          p.version,
                        )
                      }
                    >
                      {p.active ? w.disable : w.enable}
                    </button>
                    <button
                      type="button"
                      className="secondary"
                      aria-expanded={histories.has(p.id)}
                      onClick={() => toggleHistory(p.id)}
                    >
                      {histories.has(p.id) ? w.hideHistory : w.history}
                    </button>
                  </div>
                )}
              </li>
            ))}
          </ul>
          <AddProcess style={s} locked={locked} propose={propose} />
        </details>
      ))}
      {open?.id === "" && open.form === "style" ? (
        <StyleForm locked={locked} propose={propose} onClose={close} />
      ) : (
        <div className="mcp-actions">
          <button type="button" className="secondary" disabled={locked} onClick={() => setOpen({ id: "", form: "style" })}>
            {w.addStyle}
          </button>
        </div>
      )}
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
      <FormFooter problem={problem} locked={locked} onCancel={onClose} />
    </form>
  );
}

function RenameProcess({
  style,
  process,
  locked,
  propose,
  onClose,
}: {
  style: StyleView;
  process: ProcessView;
  locked: boolean;
  propose: Propose;
  onClose: () => void;
}) {
  const { lang } = useI18n();
  const w = businessWords(lang);
  const [name, setName] = useState(process.name);
  const [problem, setProblem] = useState<string | null>(null);
  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === process.name) return setProblem(w.nothingChanged);
    setProblem(null);
    const change = { change: "process_edit", style: style.id, process: process.id, name: name.trim() };
    if (await propose("prices", change, process.version)) onClose();
  };
  return (
    <form className="mcp-add business-form" aria-label={`${w.rename} ${process.name}`} onSubmit={(e) => void send(e)}>
      <label>
        <span>{w.newName}</span>
        <input name="name" required maxLength={50} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <FormFooter problem={problem} locked={locked} onCancel={onClose} />
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
  if (!open) return <OpenFormButton label={w.addProcess} locked={locked} onOpen={() => setOpen(true)} />;
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
      <FormFooter problem={problem} locked={locked} onCancel={() => setOpen(false)} />
    </form>
  );
}
