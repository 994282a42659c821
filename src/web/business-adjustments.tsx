import { type FormEvent, type ReactNode, useEffect, useState } from "react";
import { type AdjustmentView, api, type EmployeeView } from "./api.ts";
import { FormFooter, OpenFormButton } from "./business-form-footer.tsx";
import { type Propose, refusalText, yuanOf } from "./business-steps.ts";
import { businessWords } from "./business-words.ts";
import { useI18n } from "./i18n.ts";

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** Cents as 元 with two decimals, as the server writes money. */
const yuanText = (cents: number) => (cents / 100).toFixed(2);

/**
 * 车间资料 → 补贴和扣款: a month's (this month unless another is picked) per employee, with each one's
 * reason and amount; a new one entered for an employee (补贴 or 扣款, an amount in 元, a reason), and
 * one taken back. The list is read again whenever the section's lists are (after every decision).
 */
export function BusinessAdjustments({
  employees,
  today,
  propose,
  status,
  locked,
}: {
  employees: EmployeeView[];
  /** The workshop's today (YYYY-MM-DD): its month is the one shown first. */
  today: string;
  propose: Propose;
  status: ReactNode;
  locked: boolean;
}) {
  const { lang } = useI18n();
  const w = businessWords(lang);
  const [month, setMonth] = useState(today.slice(0, 7));
  // The list as last read, with its month: a month just picked shows the last one until it is read.
  const [shown, setShown] = useState<{ month: string; list: AdjustmentView[] } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `employees` is a new list after every decision (the lists are read again then), and so is the month's.
  useEffect(() => {
    if (!MONTH.test(month)) return;
    let current = true;
    setProblem(null);
    api.adjustments(month).then(
      (answer) => current && setShown({ month: answer.month, list: answer.adjustments }),
      (e) => current && setProblem(refusalText(e, w)),
    );
    return () => {
      current = false;
    };
  }, [month, employees, w]);

  // One entry per employee, in the order their first adjustment was entered.
  const byEmployee = new Map<string, AdjustmentView[]>();
  for (const a of shown?.list ?? []) byEmployee.set(a.employee.id, [...(byEmployee.get(a.employee.id) ?? []), a]);

  return (
    <section className="business-part" aria-labelledby="business-adjustments">
      <h4 id="business-adjustments">{w.adjustments}</h4>
      <label className="business-month">
        <span>{w.month}</span>
        <input name="month" type="month" required value={month} onChange={(e) => setMonth(e.target.value)} />
      </label>
      {status}
      <AdjustmentForm
        employees={employees}
        month={month}
        locked={locked}
        submit={(fields) => propose("adjustments", { change: "adjustment_add", month, ...fields })}
      />
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
      {shown === null
        ? !problem && <p className="muted">{w.loading}</p>
        : shown.list.length === 0 && <p className="muted">{w.noAdjustments(shown.month)}</p>}
      <ul className="business-list">
        {[...byEmployee.values()].map((items) => {
          const who = items[0]?.employee;
          if (!who) return null;
          const sum = (kind: AdjustmentView["kind"]) =>
            yuanText(items.filter((a) => a.kind === kind).reduce((n, a) => n + a.amount.cents, 0));
          return (
            <li key={who.id} data-employee-id={who.id}>
              <div className="business-row">
                <span className="business-no">{who.employee_no}</span>
                <strong>{who.name}</strong>
                <span className="muted business-price">{w.adjustmentTotals(sum("allowance"), sum("deduction"))}</span>
              </div>
              <ul className="business-adjustments">
                {items.map((a) => (
                  <li key={a.id} data-adjustment-id={a.id} data-kind={a.kind}>
                    <span className={`badge${a.kind === "deduction" ? " inactive" : ""}`}>
                      {a.kind === "allowance" ? w.allowance : w.deduction}
                    </span>
                    <span className="business-price">
                      {a.kind === "allowance" ? "+" : "−"}¥{a.amount.yuan}
                    </span>
                    <span>{a.reason}</span>
                    <button
                      type="button"
                      className="secondary"
                      disabled={locked}
                      onClick={() => void propose("adjustments", { change: "adjustment_remove", adjustment: a.id })}
                    >
                      {w.takeBack}
                    </button>
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** Enters a 补贴 or 扣款 of the month shown: 员工, 类型, 金额 in 元, 原因. */
function AdjustmentForm({
  employees,
  month,
  locked,
  submit,
}: {
  employees: EmployeeView[];
  month: string;
  locked: boolean;
  submit: (fields: { employee: string; kind: string; amount: number; reason: string }) => Promise<boolean>;
}) {
  const { lang } = useI18n();
  const w = businessWords(lang);
  const [open, setOpen] = useState(false);
  const [employee, setEmployee] = useState("");
  const [kind, setKind] = useState("allowance");
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const close = () => {
    setOpen(false);
    setProblem(null);
  };
  if (!open) return <OpenFormButton label={w.addAdjustment} locked={locked} primary onOpen={() => setOpen(true)} />;
  const send = async (event: FormEvent) => {
    event.preventDefault();
    const yuan = yuanOf(amount);
    if (!employee) return setProblem(w.chooseEmployee);
    if (yuan === null || yuan < 0.01) return setProblem(w.badAmount);
    if (!reason.trim()) return setProblem(w.needAdjustmentReason);
    if (!MONTH.test(month)) return setProblem(w.badMonth);
    setProblem(null);
    if (await submit({ employee, kind, amount: yuan, reason: reason.trim() })) {
      setEmployee("");
      setAmount("");
      setReason("");
      close();
    }
  };
  // Those who left stay choosable (a deduction in their last month), after those at work.
  const choices = [...employees].sort((a, b) => Number(a.status === "left") - Number(b.status === "left"));
  return (
    <form className="mcp-add business-form" aria-label={w.addAdjustment} onSubmit={(e) => void send(e)}>
      <label>
        <span>{w.employee}</span>
        <select name="employee" value={employee} onChange={(e) => setEmployee(e.target.value)}>
          <option value="">{w.chooseEmployee}</option>
          {choices.map((e) => (
            <option key={e.id} value={e.id}>
              {e.employee_no} {e.name}
              {e.status === "left" ? ` (${w.left})` : ""}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>{w.kind}</span>
        <select name="kind" value={kind} onChange={(e) => setKind(e.target.value)}>
          <option value="allowance">{w.allowance}</option>
          <option value="deduction">{w.deduction}</option>
        </select>
      </label>
      <label>
        <span>{w.amount}</span>
        <input name="amount" inputMode="decimal" maxLength={9} value={amount} onChange={(e) => setAmount(e.target.value)} />
      </label>
      <label>
        <span>{w.adjustmentReason}</span>
        <input name="reason" maxLength={100} value={reason} onChange={(e) => setReason(e.target.value)} />
      </label>
      <p className="muted">
        {w.month} {month}
      </p>
      <FormFooter problem={problem} locked={locked} onCancel={close} />
    </form>
  );
}
