import { conflict, notFound } from "../errors.ts";
import type { EmployeeOption } from "../shapes.ts";
import type { BusinessService } from "./service.ts";

// Which person an employee record belongs to is the workshop's to keep (employees.user_id): a staff
// member's records are those of the employee linked to them (`callerOf`). Every change here is a
// write a boss submitted in the settings, audited in the same batch as the change itself.

/** The workshop's employee records, as a boss picks one to link a person to (at most 2,000). */
export async function employeeOptions({ business }: { business: BusinessService }): Promise<EmployeeOption[]> {
  const { results } = await business.db
    .prepare(
      `SELECT id, name, employee_no, status, user_id AS person_id FROM employees
        WHERE tenant_id = ?1 ORDER BY status = 'left', employee_no, id LIMIT 2000`,
    )
    .bind(business.tenantId)
    .all<EmployeeOption>();
  return results;
}

/**
 * Checks that an employee record may be linked to `userId`: it is the workshop's (another
 * workshop's or an unknown id is 404) and no other person's (409).
 */
export async function checkLinkable({
  business,
  employeeId,
  userId,
}: {
  business: BusinessService;
  employeeId: string;
  userId: string | null;
}): Promise<EmployeeOption> {
  const row = await business.db
    .prepare("SELECT id, name, employee_no, status, user_id AS person_id FROM employees WHERE id = ?1 AND tenant_id = ?2")
    .bind(employeeId, business.tenantId)
    .first<EmployeeOption>();
  if (!row) throw notFound(`No employee '${employeeId.slice(0, 100)}' in your workshop.`);
  if (row.person_id !== null && row.person_id !== userId) {
    throw conflict(`The employee ${row.name} (${row.employee_no}) is already linked to another person; unlink them first.`);
  }
  return row;
}

const audit = (business: BusinessService, by: string, kind: string, entityId: string, values: string, summary: string) =>
  business.db
    .prepare(
      `INSERT INTO business_audit (id, tenant_id, user_id, action_id, kind, entity_id, values_json, confirmed_via, summary)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'settings', ?8)`,
    )
    .bind(
      `audit-${crypto.randomUUID()}`,
      business.tenantId,
      by,
      `settings-${crypto.randomUUID()}`,
      kind,
      entityId,
      values,
      summary,
    );

/**
 * Links a person to an employee record, or unlinks them (`employeeId` null), in one batch with its
 * audit entry: their earlier link is dropped only if the new one can be made (the employee is still
 * unlinked or already theirs), so a race leaves the old link and answers 409. `personName` is for
 * the audit's summary.
 */
export async function linkEmployee({
  business,
  userId,
  personName,
  employeeId,
  by,
}: {
  business: BusinessService;
  userId: string;
  personName: string;
  employeeId: string | null;
  by: string;
}): Promise<void> {
  const { db, tenantId } = business;
  if (employeeId === null) {
    await db.batch([
      db.prepare("UPDATE employees SET user_id = NULL WHERE tenant_id = ?1 AND user_id = ?2").bind(tenantId, userId),
      audit(
        business,
        by,
        "employee_link",
        userId,
        JSON.stringify({ person_id: userId, employee_id: null }),
        `取消关联：${personName}`,
      ),
    ]);
    return;
  }
  const employee = await checkLinkable({ business, employeeId, userId });
  const free = `EXISTS (SELECT 1 FROM employees WHERE id = ?3 AND tenant_id = ?1 AND (user_id IS NULL OR user_id = ?2))`;
  const [, linked] = await db.batch([
    db
      .prepare(`UPDATE employees SET user_id = NULL WHERE tenant_id = ?1 AND user_id = ?2 AND id != ?3 AND ${free}`)
      .bind(tenantId, userId, employeeId),
    db
      .prepare("UPDATE employees SET user_id = ?2 WHERE id = ?3 AND tenant_id = ?1 AND (user_id IS NULL OR user_id = ?2)")
      .bind(tenantId, userId, employeeId),
    db
      .prepare(
        `INSERT INTO business_audit (id, tenant_id, user_id, action_id, kind, entity_id, values_json, confirmed_via, summary)
         SELECT ?4, ?1, ?5, ?6, 'employee_link', ?3, json_object('person_id', ?2, 'employee_id', ?3), 'settings', ?7
          WHERE EXISTS (SELECT 1 FROM employees WHERE id = ?3 AND tenant_id = ?1 AND user_id = ?2)`,
      )
      .bind(
        tenantId,
        userId,
        employeeId,
        `audit-${crypto.randomUUID()}`,
        by,
        `settings-${crypto.randomUUID()}`,
        `关联员工：${personName} → ${employee.name}（工号 ${employee.employee_no}）`,
      ),
  ]);
  if ((linked?.meta.changes ?? 0) !== 1) {
    throw conflict(`The employee ${employee.name} (${employee.employee_no}) was just linked to another person.`);
  }
}

/**
 * Makes a new employee record for a person, with their name and the workshop's next employee
 * number (001, 002, …), linked to them, in one batch with its audit entry. A person already linked
 * keeps their record and this is 409.
 */
export async function createLinkedEmployee({
  business,
  userId,
  name,
  by,
}: {
  business: BusinessService;
  userId: string;
  name: string;
  by: string;
}): Promise<EmployeeOption> {
  const { db, tenantId } = business;
  const id = `e-${crypto.randomUUID()}`;
  const [inserted] = await db.batch([
    db
      .prepare(
        `INSERT INTO employees (id, tenant_id, user_id, name, employee_no)
         SELECT ?1, ?2, ?3, ?4,
                (SELECT printf('%03d', COALESCE(MAX(CAST(employee_no AS INTEGER)), 0) + 1) FROM employees WHERE tenant_id = ?2)
          WHERE NOT EXISTS (SELECT 1 FROM employees WHERE tenant_id = ?2 AND user_id = ?3)`,
      )
      .bind(id, tenantId, userId, name),
    db
      .prepare(
        `INSERT INTO business_audit (id, tenant_id, user_id, action_id, kind, entity_id, values_json, confirmed_via, summary)
         SELECT ?2, tenant_id, ?3, ?4, 'employee', id, json_object('name', name, 'employee_no', employee_no, 'person_id', user_id),
                'settings', '新建员工档案：' || name || '（工号 ' || employee_no || '）'
           FROM employees WHERE id = ?1`,
      )
      .bind(id, `audit-${crypto.randomUUID()}`, by, `settings-${crypto.randomUUID()}`),
  ]);
  if ((inserted?.meta.changes ?? 0) !== 1) throw conflict("This person is already linked to an employee record.");
  const row = await business.db
    .prepare("SELECT id, name, employee_no, status, user_id AS person_id FROM employees WHERE id = ?1 AND tenant_id = ?2")
    .bind(id, tenantId)
    .first<EmployeeOption>();
  if (!row) throw notFound("The new employee record is gone.");
  return row;
}
