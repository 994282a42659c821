import type { Executor, Prepared } from "../actions/types.ts";
import { AppError } from "../errors.ts";
import type { PreviewField } from "../shapes.ts";
import type { UserContext } from "../user-context.ts";
import {
  AUDIT_FREE_PARAM,
  auditStatement,
  changeLines,
  checkIfMatch,
  executeOnce,
  MANAGER,
  type RowUpdate,
  requireManager,
  rowChange,
  staleRow,
  updateStatements,
  type Words,
  writtenByAudit,
} from "./changes.ts";
import { employeeCandidates } from "./employees.ts";
import { settle } from "./name-match.ts";
import type { BusinessService } from "./service.ts";
import { employeeNoOf, nameOf, phoneOf } from "./values.ts";
import { callerOf } from "./workshop.ts";

// Employees (员工): a boss adds them (a 工号 is generated when none is given), changes their name,
// 工号 or phone, marks them as left (their records stay, and so does the link to a person who signs
// in as them: they still see their own records) and takes them back.

export const EMPLOYEE_CHANGES = ["add", "edit", "leave", "rejoin"] as const;
export type EmployeeChange = (typeof EMPLOYEE_CHANGES)[number];

export interface EmployeeInput {
  change: EmployeeChange;
  employee?: string | undefined;
  name?: string | undefined;
  employee_no?: string | undefined;
  phone?: string | undefined;
  date?: string | undefined;
}

/** An employee's change, checked, waiting to be written. */
export type EmployeeWrite =
  | { change: "add"; name: string; employeeNo: string | null; phone: string | null }
  | { change: "edit" | "leave" | "rejoin"; update: RowUpdate; what: string };

/** An employee record as a change reads it. */
export interface EmployeeRecord {
  id: string;
  name: string;
  employee_no: string;
  phone: string | null;
  status: "active" | "left";
  left_on: string | null;
  version: number;
}

const LABELS = { name: "姓名", employee_no: "工号", phone: "电话", status: "状态", left_on: "离职日期" } as const;

function wordsFor(what: string): Words {
  return {
    what,
    labels: LABELS,
    show: (column, value) =>
      column === "status" ? (value === "left" ? "已离职" : "在职") : value === null || value === "" ? "空" : String(value),
  };
}

const describe = (e: { name: string; employee_no: string }) => `${e.name}（工号 ${e.employee_no}）`;

/** One employee record of the workshop, by id. */
export async function employeeRecord(business: BusinessService, id: string): Promise<EmployeeRecord | null> {
  return business.db
    .prepare("SELECT id, name, employee_no, phone, status, left_on, version FROM employees WHERE id = ?1 AND tenant_id = ?2")
    .bind(id, business.tenantId)
    .first<EmployeeRecord>();
}

/** Who holds a 工号 in the workshop, if anyone. */
async function holderOf(business: BusinessService, employeeNo: string): Promise<{ id: string; name: string } | null> {
  return business.db
    .prepare("SELECT id, name FROM employees WHERE tenant_id = ?1 AND employee_no = ?2")
    .bind(business.tenantId, employeeNo)
    .first<{ id: string; name: string }>();
}

/** The 工号 the next employee added without one gets: the highest number so far plus one, three digits at least. */
async function nextEmployeeNo(business: BusinessService): Promise<string> {
  const row = await business.db
    .prepare(`SELECT ${NEXT_NO_SQL} AS next FROM employees WHERE tenant_id = ?1`)
    .bind(business.tenantId)
    .first<{ next: string }>();
  return row?.next ?? "001";
}

const NEXT_NO_SQL = "printf('%03d', COALESCE(MAX(CAST(employee_no AS INTEGER)), 0) + 1)";

async function requireFreeNo(business: BusinessService, employeeNo: string, self?: string): Promise<void> {
  const holder = await holderOf(business, employeeNo);
  if (holder && holder.id !== self) {
    throw new AppError("conflict", `工号 ${employeeNo} is already ${holder.name}'s; each employee has their own.`);
  }
}

/**
 * Checks an employee's change (boss only) and previews it, writing nothing: `add` a new employee;
 * `edit` their name, 工号 or phone; `leave` (from `date`, today unless said) or `rejoin`. `ifVersion`
 * is what a REST client read (`If-Match`): a change meanwhile is then refused before anything is prepared.
 */
export async function prepareEmployee({
  business,
  user,
  input,
  ifVersion,
}: {
  business: BusinessService;
  user: UserContext;
  input: EmployeeInput;
  ifVersion?: number[] | undefined;
}): Promise<Prepared<EmployeeWrite>> {
  requireManager(user);
  const caller = await callerOf({ business, user });
  if (input.change === "add") {
    if (input.name === undefined) throw new AppError("invalid_input", "name: say the new employee's name.");
    const name = nameOf(input.name, "name");
    const employeeNo = input.employee_no === undefined ? null : employeeNoOf(input.employee_no);
    const phone = input.phone === undefined ? null : phoneOf(input.phone);
    if (employeeNo !== null) await requireFreeNo(business, employeeNo);
    const namesakes = (await employeeCandidates({ business, tenantId: business.tenantId })).filter((e) => e.name === name);
    const preview: PreviewField[] = [
      { label: "姓名", value: name },
      { label: "工号", value: employeeNo ?? `确认时自动生成（下一个是 ${await nextEmployeeNo(business)}）` },
      { label: "电话", value: phone ?? "未填" },
      { label: "状态", value: "在职" },
    ];
    if (namesakes.length > 0) preview.push({ label: "提示", value: `已有同名员工：${namesakes.map((e) => e.label).join("；")}` });
    return {
      kind: "employee",
      write: { change: "add", name, employeeNo, phone },
      summary: `新增员工：${name}${phone ? `，电话 ${phone}` : ""}`,
      preview,
      ambiguities: [],
      needs: MANAGER,
    };
  }
  if (input.employee === undefined) throw new AppError("invalid_input", "employee: say which employee (name, 工号 or id).");
  const settled = settle(
    await employeeCandidates({ business, tenantId: business.tenantId }),
    input.employee,
    "employees",
    "employee",
  );
  if (settled.ambiguity) {
    return {
      kind: "employee",
      write: null,
      summary: `${CHANGE_WORDS[input.change]}：${input.employee}`,
      preview: [{ label: "员工", value: "待选择" }],
      ambiguities: [settled.ambiguity],
      needs: MANAGER,
    };
  }
  const record = await employeeRecord(business, settled.item.id);
  if (!record) throw new AppError("unknown_name", `No employee '${input.employee}' in this workshop.`);
  checkIfMatch(ifVersion, record, `The employee ${describe(record)}`);
  const after = await afterOf(business, record, input, caller.today);
  const update: RowUpdate = {
    table: "employees",
    id: record.id,
    version: record.version,
    before: {
      name: record.name,
      employee_no: record.employee_no,
      phone: record.phone,
      status: record.status,
      left_on: record.left_on,
    },
    after,
  };
  const what = describe(record);
  return {
    kind: "employee",
    write: { change: input.change, update, what },
    summary: `${CHANGE_WORDS[input.change]}：${what}`,
    preview: [
      { label: "员工", value: what },
      ...changeLines(update, wordsFor(what)),
      ...(input.change === "leave" ? [{ label: "说明", value: "离职后不能再登记计件；以前的计件、工资和登录关联都保留" }] : []),
    ],
    ambiguities: [],
    needs: MANAGER,
  };
}

const CHANGE_WORDS: Record<EmployeeChange, string> = {
  add: "新增员工",
  edit: "修改员工资料",
  leave: "员工离职",
  rejoin: "员工复职",
};

/** The columns an edit, a leave or a rejoin sets, checked; refused when nothing would change. */
async function afterOf(
  business: BusinessService,
  record: EmployeeRecord,
  input: EmployeeInput,
  today: string,
): Promise<Record<string, string | null>> {
  if (input.change === "leave") {
    if (record.status === "left")
      throw new AppError("unprocessable", `${describe(record)} has already left (on ${record.left_on ?? "?"}).`);
    const leftOn = input.date ?? today;
    if (leftOn > today)
      throw new AppError("invalid_input", `date ${leftOn} is after today (${today}): mark them as left on their last day.`);
    return { status: "left", left_on: leftOn };
  }
  if (input.change === "rejoin") {
    if (record.status === "active") throw new AppError("unprocessable", `${describe(record)} has not left.`);
    return { status: "active", left_on: null };
  }
  const after: Record<string, string | null> = {};
  if (input.name !== undefined) {
    const name = nameOf(input.name, "name");
    if (name !== record.name) after.name = name;
  }
  if (input.employee_no !== undefined) {
    const no = employeeNoOf(input.employee_no);
    if (no !== record.employee_no) {
      await requireFreeNo(business, no, record.id);
      after.employee_no = no;
    }
  }
  if (input.phone !== undefined) {
    const phone = phoneOf(input.phone);
    if (phone !== record.phone) after.phone = phone;
  }
  if (Object.keys(after).length === 0) {
    throw new AppError("invalid_input", `Nothing to change: give a new name, employee_no or phone for ${describe(record)}.`);
  }
  return after;
}

/** Writes a confirmed employee change, with its audit entry (before and after) in the same batch. */
export function employeeExecutor(business: BusinessService): Executor<EmployeeWrite> {
  const { db } = business;
  return {
    kind: "employee",
    label: { zh: "员工档案", en: "Employee record" },
    written: ({ actionId, owner }) => writtenByAudit(db, actionId, owner.tenantId),
    execute: ({ actionId, owner, write, summary, approval }) => {
      const entry = { owner, actionId, kind: "employee", summary, approval };
      if (write.change === "add") {
        const id = `e-${actionId.slice(0, 32)}`;
        return executeOnce({
          db,
          actionId,
          tenantId: owner.tenantId,
          stale: async () => {
            if (write.employeeNo === null) return null;
            const holder = await holderOf(business, write.employeeNo);
            return holder
              ? `准备之后，工号 ${write.employeeNo} 已经给了 ${holder.name}。这次没有写入，请换一个工号重新准备。`
              : null;
          },
          statements: () => [
            db
              .prepare(
                `INSERT INTO employees (id, tenant_id, name, employee_no, phone)
                 SELECT ?1, ?2, ?3, COALESCE(?4, (SELECT ${NEXT_NO_SQL} FROM employees WHERE tenant_id = ?2)), ?5`,
              )
              .bind(id, owner.tenantId, write.name, write.employeeNo, write.phone),
            auditStatement(
              db,
              { ...entry, entityId: id },
              {
                sql: "json_object('before', NULL, 'after', json_object('name', name, 'employee_no', employee_no, 'phone', phone, 'status', status))",
                from: `FROM employees WHERE id = ?${AUDIT_FREE_PARAM}`,
                params: [id],
              },
            ),
          ],
        });
      }
      const { update, what } = write;
      return executeOnce({
        db,
        actionId,
        tenantId: owner.tenantId,
        stale: async () => {
          const changed = await staleRow(db, owner.tenantId, update, wordsFor(what));
          if (changed) return changed;
          const no = update.after.employee_no;
          const holder = typeof no === "string" ? await holderOf(business, no) : null;
          return holder && holder.id !== update.id ? `准备之后，工号 ${no} 已经给了 ${holder.name}。这次没有写入。` : null;
        },
        statements: () => [
          ...updateStatements(db, owner.tenantId, update),
          auditStatement(db, { ...entry, entityId: update.id }, { json: rowChange(update) }),
        ],
      });
    },
  };
}
