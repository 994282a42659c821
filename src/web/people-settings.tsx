import { type FormEvent, useCallback, useEffect, useState } from "react";
import { accountErrorText } from "./account-error.ts";
import { ApiError, api, type EmployeeOption, type PersonChanges, type PersonView, type Role, type User } from "./api.ts";
import { AskAgain } from "./ask-again.tsx";
import { useI18n } from "./i18n.ts";
import { OneTimeLink } from "./one-time-link.tsx";
import { passwordWords } from "./password-words.ts";
import { peopleWords } from "./people-words.ts";
import "./people.css";

/** The employee picker's value: "" for none, "new" for a new record, else an employee's id. */
type EmployeeChoice = string;
const NEW_EMPLOYEE = "new";

/** A link just made for someone: shown once, held only in this view's memory. */
interface Shown {
  name: string;
  url: string;
}

/** The roles `user` may give: never above their own. */
function rolesFor(user: User): Role[] {
  return user.role === "admin" ? ["staff", "boss", "admin"] : ["staff", "boss"];
}

/**
 * Settings → 人员, for a boss or the workshop's admin: the workshop's people, adding one (with a
 * password, or a one-time set-password link shown once to send), changing their name, role and
 * employee record, a new set-password link, and deactivating or reactivating them.
 */
export function PeopleSettings({ user, onUnauthorized }: { user: User; onUnauthorized: () => void }) {
  const { t, lang } = useI18n();
  const w = peopleWords(lang);
  const words = passwordWords(lang);
  const [data, setData] = useState<{ people: PersonView[]; employees: EmployeeOption[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const fail = useCallback(
    (e: unknown) => {
      if (e instanceof ApiError && e.status === 401) onUnauthorized();
      else setError(accountErrorText(e, words));
    },
    [onUnauthorized, words],
  );
  const load = useCallback(() => {
    api.listPeople().then(setData, fail);
  }, [fail]);
  useEffect(load, [load]);

  const run = async <T,>(request: Promise<T>, after: (result: T) => void): Promise<boolean> => {
    setError(null);
    try {
      after(await request);
      load();
      return true;
    } catch (e) {
      fail(e);
      return false;
    }
  };

  return (
    <section className="settings-section people" aria-labelledby="people-title">
      <h3 id="people-title">{w.peopleTitle}</h3>
      <p className="muted">{w.peopleLead}</p>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {shown && <OneTimeLink lead={w.linkFor(shown.name)} url={shown.url} onDone={() => setShown(null)} />}
      <AddPerson
        user={user}
        employees={data?.employees ?? []}
        add={(person) =>
          run(
            api.addPerson(person),
            (r) => r.set_password_link && setShown({ name: r.person.name, url: r.set_password_link.url }),
          )
        }
      />
      {data === null ? (
        !error && <p className="muted">{t.loading}</p>
      ) : (
        <ul className="mcp-list people-list">
          {data.people.map((p) => (
            <PersonRow
              key={p.id}
              person={p}
              user={user}
              employees={data.employees}
              update={(changes) => run(api.updatePerson(p.id, changes), () => undefined)}
              reset={() => run(api.resetPassword(p.id), (r) => setShown({ name: p.name, url: r.set_password_link.url }))}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function EmployeePicker({
  employees,
  personId,
  value,
  onChange,
}: {
  employees: EmployeeOption[];
  personId: string | null;
  value: EmployeeChoice;
  onChange: (value: EmployeeChoice) => void;
}) {
  const { lang } = useI18n();
  const w = peopleWords(lang);
  // An employee belongs to one person: only free records, and this person's own, are offered.
  const offered = employees.filter((e) => e.person_id === null || e.person_id === personId);
  return (
    <label>
      <span>{w.employee}</span>
      <select name="employee" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{w.noEmployee}</option>
        {offered.map((e) => (
          <option key={e.id} value={e.id}>
            {w.employeeOption(e.name, e.employee_no, e.status === "left")}
          </option>
        ))}
        <option value={NEW_EMPLOYEE}>{w.newEmployee}</option>
      </select>
    </label>
  );
}

function RolePicker({
  user,
  value,
  onChange,
  disabled,
}: {
  user: User;
  value: Role;
  onChange: (role: Role) => void;
  disabled?: boolean;
}) {
  const { t, lang } = useI18n();
  const w = peopleWords(lang);
  return (
    <label>
      <span>{w.role}</span>
      <select name="role" value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as Role)}>
        {rolesFor(user).map((role) => (
          <option key={role} value={role}>
            {t.roles[role]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** "添加人员": a button that opens the form in place, so the list of people comes first on a phone. */
function AddPerson({
  user,
  employees,
  add,
}: {
  user: User;
  employees: EmployeeOption[];
  add: (person: Parameters<typeof api.addPerson>[0]) => Promise<boolean>;
}) {
  const { lang } = useI18n();
  const w = peopleWords(lang);
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <div className="mcp-actions person-add-open">
        <button type="button" className="primary" onClick={() => setOpen(true)}>
          {w.addPerson}
        </button>
      </div>
    );
  }
  return <AddPersonForm user={user} employees={employees} add={add} onClose={() => setOpen(false)} />;
}

function AddPersonForm({
  user,
  employees,
  add,
  onClose,
}: {
  user: User;
  employees: EmployeeOption[];
  add: (person: Parameters<typeof api.addPerson>[0]) => Promise<boolean>;
  onClose: () => void;
}) {
  const { t, lang } = useI18n();
  const w = peopleWords(lang);
  const [name, setName] = useState("");
  const [username, setUsername] = useState("");
  const [role, setRole] = useState<Role>("staff");
  const [password, setPassword] = useState("");
  const [employee, setEmployee] = useState<EmployeeChoice>("");
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const added = await add({
      name: name.trim(),
      username: username.trim(),
      role,
      ...(password ? { password } : {}),
      ...(employee === NEW_EMPLOYEE ? { new_employee: true } : employee ? { employee_id: employee } : {}),
    });
    setBusy(false);
    if (added) onClose();
  };
  return (
    <form className="mcp-add person-add" aria-label={w.addPerson} onSubmit={(e) => void submit(e)}>
      <label>
        <span>{w.name}</span>
        {/* biome-ignore lint/a11y/noAutofocus: the form opens because the person asked to add someone. */}
        <input name="name" autoFocus required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        <span>{w.username}</span>
        <input
          name="username"
          required
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={32}
          value={username}
          onChange={(e) => setUsername(e.target.value)}
        />
      </label>
      <RolePicker user={user} value={role} onChange={setRole} />
      <label>
        <span>{w.passwordOptional}</span>
        <input
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={8}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      <EmployeePicker employees={employees} personId={null} value={employee} onChange={setEmployee} />
      <div className="mcp-actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? w.adding : w.add}
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          {t.cancel}
        </button>
      </div>
    </form>
  );
}

function PersonRow({
  person: p,
  user,
  employees,
  update,
  reset,
}: {
  person: PersonView;
  user: User;
  employees: EmployeeOption[];
  update: (changes: PersonChanges) => Promise<boolean>;
  reset: () => void;
}) {
  const { t, lang } = useI18n();
  const w = peopleWords(lang);
  const [mode, setMode] = useState<"view" | "edit" | "deactivate">("view");
  const self = p.id === user.id;
  // A boss manages staff and bosses; the workshop's admin only an admin manages.
  const manageable = rolesFor(user).includes(p.role);
  const employee = employees.find((e) => e.id === p.employee_id);
  return (
    <li className="mcp-server person" data-person-id={p.id} data-active={String(p.active)}>
      <div className="mcp-title">
        <strong>{p.name}</strong>
        <span className="badge">{t.roles[p.role]}</span>
        {self && <span className="badge">{w.you}</span>}
        {!p.active && <span className="badge inactive">{w.inactive}</span>}
        {p.active && !p.has_password && p.username && <span className="badge">{w.noPassword}</span>}
        {p.active && p.password_link_pending && <span className="badge">{w.linkPending}</span>}
      </div>
      <div className="muted person-meta">
        <span>{p.username ?? w.onlyKeys}</span>
        <span>{employee ? w.linked(employee.name, employee.employee_no) : w.notLinked}</span>
      </div>
      {mode === "edit" ? (
        <EditPerson person={p} user={user} employees={employees} update={update} onDone={() => setMode("view")} />
      ) : mode === "deactivate" ? (
        <AskAgain
          question={w.confirmDeactivate(p.name)}
          actionLabel={w.deactivate}
          cancelLabel={t.cancel}
          onAction={() => void update({ active: false }).then(() => setMode("view"))}
          onCancel={() => setMode("view")}
        />
      ) : (
        manageable && (
          <div className="mcp-actions">
            <button type="button" className="secondary" onClick={() => setMode("edit")}>
              {w.edit}
            </button>
            {p.active && p.username && (
              <button type="button" className="secondary" onClick={reset}>
                {w.resetPassword}
              </button>
            )}
            {!self &&
              (p.active ? (
                <button type="button" className="secondary" onClick={() => setMode("deactivate")}>
                  {w.deactivate}
                </button>
              ) : (
                <button type="button" className="secondary" onClick={() => void update({ active: true })}>
                  {w.reactivate}
                </button>
              ))}
          </div>
        )
      )}
    </li>
  );
}

function EditPerson({
  person: p,
  user,
  employees,
  update,
  onDone,
}: {
  person: PersonView;
  user: User;
  employees: EmployeeOption[];
  update: (changes: PersonChanges) => Promise<boolean>;
  onDone: () => void;
}) {
  const { t, lang } = useI18n();
  const w = peopleWords(lang);
  const self = p.id === user.id;
  const [name, setName] = useState(p.name);
  const [role, setRole] = useState<Role>(p.role);
  const [employee, setEmployee] = useState<EmployeeChoice>(p.employee_id ?? "");
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // Only what changed is sent.
    const changes: PersonChanges = {};
    if (name.trim() !== p.name) changes.name = name.trim();
    if (role !== p.role) changes.role = role;
    if (employee !== (p.employee_id ?? "")) {
      if (employee === NEW_EMPLOYEE) changes.new_employee = true;
      else changes.employee_id = employee || null;
    }
    if (Object.keys(changes).length === 0) return onDone();
    setBusy(true);
    const saved = await update(changes);
    setBusy(false);
    if (saved) onDone();
  };
  return (
    <form className="mcp-add person-edit" aria-label={w.editPerson(p.name)} onSubmit={(e) => void submit(e)}>
      <label>
        <span>{w.name}</span>
        <input name="name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <RolePicker user={user} value={role} onChange={setRole} disabled={self} />
      {self && <p className="muted">{w.ownRoleFixed}</p>}
      <EmployeePicker employees={employees} personId={p.id} value={employee} onChange={setEmployee} />
      <div className="mcp-actions">
        <button type="submit" className="primary" disabled={busy}>
          {t.save}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          {t.cancel}
        </button>
      </div>
    </form>
  );
}
