import { decodeCursor, page } from "../cursor.ts";
import type { Named } from "./name-match.ts";
import type { BusinessService } from "./service.ts";
import { Where } from "./where.ts";
import { type Caller, ownEmployeeId } from "./workshop.ts";

export interface EmployeeRow {
  id: string;
  name: string;
  employee_no: string;
  status: "active" | "left";
  left_on: string | null;
  has_login: boolean;
  phone?: string | null;
}

export type EmployeeCandidate = Named & { status: string; userId: string | null };

/** Employees as candidates for a name, within one workshop. */
export async function employeeCandidates({
  business,
  tenantId,
}: {
  business: BusinessService;
  tenantId: string;
}): Promise<EmployeeCandidate[]> {
  const { results } = await business.db
    .prepare("SELECT id, name, employee_no, status, person_id FROM employees WHERE tenant_id = ?1 ORDER BY employee_no, id")
    .bind(tenantId)
    .all<{ id: string; name: string; employee_no: string; status: string; person_id: string | null }>();
  return results.map((r) => ({
    id: r.id,
    name: r.name,
    label: `${r.name} (工号 ${r.employee_no}${r.status === "left" ? ", 已离职" : ""})`,
    aliases: [r.employee_no],
    status: r.status,
    userId: r.person_id,
  }));
}

/**
 * A page of the workshop's employees by employee number: a boss sees all of them (with phone
 * numbers), staff only themselves.
 */
export async function listEmployees({
  business,
  caller,
  nameContains,
  status,
  limit,
  cursor,
}: {
  business: BusinessService;
  caller: Caller;
  nameContains?: string | undefined;
  status?: "active" | "left" | undefined;
  limit: number;
  cursor?: string | undefined;
}): Promise<{ items: EmployeeRow[]; next_cursor: string | null; total: number }> {
  const w = new Where();
  w.add(`tenant_id = ${w.param(business.tenantId)}`);
  if (!caller.seesAll) w.add(`id = ${w.param(ownEmployeeId(caller))}`);
  if (nameContains) w.add(`instr(name, ${w.param(nameContains)}) > 0`);
  if (status) w.add(`status = ${w.param(status)}`);
  const p = w.copy();
  if (cursor) {
    const [no, id] = decodeCursor(cursor, 2);
    p.add(`(employee_no, id) > (${p.param(String(no))}, ${p.param(String(id))})`);
  }
  const [rows, count] = await business.db.batch<Record<string, unknown>>([
    business.db
      .prepare(
        `SELECT id, name, employee_no, status, left_on, person_id IS NOT NULL AS has_login, phone
           FROM employees WHERE ${p.sql} ORDER BY employee_no, id LIMIT ${limit + 1}`,
      )
      .bind(...p.params),
    business.db.prepare(`SELECT COUNT(*) AS total FROM employees WHERE ${w.sql}`).bind(...w.params),
  ]);
  const items = (rows?.results ?? []).map((r) => ({
    id: String(r.id),
    name: String(r.name),
    employee_no: String(r.employee_no),
    status: r.status as EmployeeRow["status"],
    left_on: (r.left_on as string | null) ?? null,
    has_login: Boolean(r.has_login),
    ...(caller.seesAll ? { phone: (r.phone as string | null) ?? null } : {}),
  }));
  return { ...page(items, limit, (r) => [r.employee_no, r.id]), total: Number(count?.results[0]?.total ?? 0) };
}
