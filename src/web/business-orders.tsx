import { type FormEvent, type ReactNode, useState } from "react";
import { ORDER_STATUS_WORDS } from "../status-words.ts";
import type { OrderView } from "./api.ts";
import { FormFooter } from "./business-form-footer.tsx";
import { ORDER_NEXT, type Propose } from "./business-steps.ts";
import { businessWords } from "./business-words.ts";
import { useI18n } from "./i18n.ts";

/**
 * 车间资料 → 订单: the open orders with their status, moved along the allowed steps (待生产 →
 * 生产中 → 已完成, or 已取消 with a reason), and their quantity or due date changed.
 */
export function BusinessOrders({
  orders,
  propose,
  status,
  locked,
}: {
  orders: OrderView[];
  propose: Propose;
  status: ReactNode;
  locked: boolean;
}) {
  const { lang } = useI18n();
  const w = businessWords(lang);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <section className="business-part" aria-labelledby="business-orders">
      <h4 id="business-orders">{w.openOrders}</h4>
      {status}
      {orders.length === 0 && <p className="muted">{w.noOrders}</p>}
      <ul className="business-list">
        {orders.map((o) => (
          <li key={o.id} data-order-id={o.id} data-order-no={o.order_no} data-status={o.status}>
            <div className="business-row">
              <strong>{o.order_no}</strong>
              <span className="badge">{ORDER_STATUS_WORDS[o.status][lang]}</span>
              <span>
                {o.style} · {o.customer}
              </span>
              <span className="muted">
                {w.quantity} {o.quantity} · {w.dueDate} {o.due_date}
              </span>
            </div>
            {open === o.id ? (
              <OrderForm order={o} locked={locked} propose={propose} onClose={() => setOpen(null)} />
            ) : (
              <div className="mcp-actions">
                <button type="button" className="secondary" disabled={locked} onClick={() => setOpen(o.id)}>
                  {w.edit}
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function OrderForm({
  order,
  locked,
  propose,
  onClose,
}: {
  order: OrderView;
  locked: boolean;
  propose: Propose;
  onClose: () => void;
}) {
  const { lang } = useI18n();
  const w = businessWords(lang);
  const [next, setNext] = useState<string>("");
  const [reason, setReason] = useState("");
  const [quantity, setQuantity] = useState(String(order.quantity));
  const [due, setDue] = useState(order.due_date);
  const [problem, setProblem] = useState<string | null>(null);
  const send = async (event: FormEvent) => {
    event.preventDefault();
    const count = Number(quantity);
    const change = {
      change: "order",
      // Its number: an order's id may be longer than a change names a record by (50).
      order: order.order_no,
      ...(next ? { status: next } : {}),
      ...(next === "cancelled" ? { reason: reason.trim() } : {}),
      ...(count !== order.quantity ? { quantity: count } : {}),
      ...(due !== order.due_date ? { due_date: due } : {}),
    };
    if (next === "cancelled" && !reason.trim()) return setProblem(w.needReason);
    if (Object.keys(change).length === 2) return setProblem(w.nothingChanged);
    setProblem(null);
    if (await propose("orders", change, order.version)) onClose();
  };
  return (
    <form className="mcp-add business-form" aria-label={`${w.edit} ${order.order_no}`} onSubmit={(e) => void send(e)}>
      <label>
        <span>{w.moveTo}</span>
        <select name="status" value={next} onChange={(e) => setNext(e.target.value)}>
          <option value="">{ORDER_STATUS_WORDS[order.status][lang]}</option>
          {ORDER_NEXT[order.status].map((s) => (
            <option key={s} value={s}>
              → {ORDER_STATUS_WORDS[s][lang]}
            </option>
          ))}
        </select>
      </label>
      {next === "cancelled" && (
        <label>
          <span>{w.reason}</span>
          <input name="reason" required maxLength={200} value={reason} onChange={(e) => setReason(e.target.value)} />
        </label>
      )}
      <label>
        <span>{w.quantity}</span>
        <input
          name="quantity"
          type="number"
          min={1}
          max={1_000_000}
          required
          value={quantity}
          onChange={(e) => setQuantity(e.target.value)}
        />
      </label>
      <label>
        <span>{w.dueDate}</span>
        <input name="due_date" type="date" required value={due} onChange={(e) => setDue(e.target.value)} />
      </label>
      <FormFooter problem={problem} locked={locked} onCancel={onClose} />
    </form>
  );
}
