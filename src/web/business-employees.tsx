import { type FormEvent, type ReactNode, useState } from "react";
import type { EmployeeView } from "./api.ts";
import { FormFooter, OpenFormButton } from "./business-form-footer.tsx";
import type { Propose } from "./business-steps.ts";
import { businessWords } from "./business-words.ts";
import { useI18n } from "./i18n.ts";

/** 车间资料 → 员工: the list (工号, 姓名, 电话, 在职/离职), adding one (工号 made when empty), editing, leaving and coming back. */
export function BusinessEmployees({
  employees,
  propose,
  status,
  locked,
}: {
  employees: EmployeeView[];
  propose: Propose;
  status: ReactNode;
  /** A change is waiting for its 确认: no other is prepared meanwhile. */
  locked: boolean;
}) {
  const { lang } = useI18n();
  const w = businessWords(lang);
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <section className="business-part" aria-labelledby="business-employees">
      <h4 id="business-employees">{w.employees}</h4>
      {status}
      <EmployeeForm
        label={w.addEmployee}
        locked={locked}
        submit={(fields) => propose("employees", { change: "employee_add", ...fields })}
      />
      <ul className="business-list">
        {employees.map((e) => (
          <li key={e.id} data-employee-id={e.id} data-status={e.status}>
            <div className="business-row">
              <span className="business-no">{e.employee_no}</span>
              <strong>{e.name}</strong>
              <span className="muted">{e.phone ?? ""}</span>
              <span className={`badge${e.status === "left" ? " inactive" : ""}`}>
                {e.status === "left" ? (e.left_on ? w.leftOn(e.left_on) : w.left) : w.active}
              </span>
            </div>
            {editing === e.id ? (
              <EmployeeForm
                label={`${w.edit} ${e.name}`}
                employee={e}
                locked={locked}
                onClose={() => setEditing(null)}
                submit={async (fields) => {
                  // Only what changed is sent.
                  const changed = Object.fromEntries(
                    Object.entries(fields).filter(
                      ([k, v]) => v !== undefined && v !== ((e as unknown as Record<string, unknown>)[k] ?? ""),
                    ),
                  );
                  if (Object.keys(changed).length === 0) return true;
                  return propose("employees", { change: "employee_edit", employee: e.id, ...changed }, e.version);
                }}
              />
            ) : (
              <div className="mcp-actions">
                <button type="button" className="secondary" disabled={locked} onClick={() => setEditing(e.id)}>
                  {w.edit}
                </button>
                <button
                  type="button"
                  className="secondary"
                  disabled={locked}
                  onClick={() =>
                    void propose(
                      "employees",
                      { change: e.status === "left" ? "employee_rejoin" : "employee_leave", employee: e.id },
                      e.version,
                    )
                  }
                >
                  {e.status === "left" ? w.markBack : w.markLeft}
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Adds an employee, or edits one (`employee`): 姓名, 电话, 工号. */
function EmployeeForm({
  label,
  employee,
  locked,
  submit,
  onClose,
}: {
  label: string;
  employee?: EmployeeView;
  locked: boolean;
  submit: (fields: { name: string; phone: string | undefined; employee_no: string | undefined }) => Promise<boolean>;
  onClose?: () => void;
}) {
  const { lang } = useI18n();
  const w = businessWords(lang);
  const [open, setOpen] = useState(employee !== undefined);
  const [name, setName] = useState(employee?.name ?? "");
  const [phone, setPhone] = useState(employee?.phone ?? "");
  const [no, setNo] = useState(employee?.employee_no ?? "");
  const close = () => {
    setOpen(false);
    onClose?.();
  };
  if (!open) return <OpenFormButton label={w.addEmployee} locked={locked} primary onOpen={() => setOpen(true)} />;
  const send = async (event: FormEvent) => {
    event.preventDefault();
    // An edit sends an emptied phone as "" (the server clears it); a new employee simply has none.
    const phoneSent = employee ? phone.trim() : phone.trim() || undefined;
    const ok = await submit({ name: name.trim(), phone: phoneSent, employee_no: no.trim() || undefined });
    if (ok) {
      setName("");
      setPhone("");
      setNo("");
      close();
    }
  };
  return (
    <form className="mcp-add business-form" aria-label={label} onSubmit={(e) => void send(e)}>
      <label>
        <span>{w.name}</span>
        <input name="name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        <span>{w.phone}</span>
        <input name="phone" type="tel" maxLength={30} value={phone} onChange={(e) => setPhone(e.target.value)} />
      </label>
      <label>
        <span>{employee ? w.employeeNo : w.employeeNoAuto}</span>
        <input name="employee_no" maxLength={20} value={no} onChange={(e) => setNo(e.target.value)} />
      </label>
      <FormFooter problem={null} locked={locked} onCancel={close} />
    </form>
  );
}
