// Role rules live in one table beside UserContext (permissions.ts); it holds rules, not requests, so domains may ask it.

import { AppError } from "../errors.ts";
import { can } from "../permissions.ts";
import type { UserContext } from "../user-context.ts";
import { localDate, workshopTimeZone } from "./local-time.ts";
import type { BusinessService } from "./service.ts";

/** Who is asking, as the business queries need it: the workshop's time zone and "today" there. */
export interface Caller {
  user: UserContext;
  timeZone: string;
  today: string;
  /** The employee row of the caller, when their account is linked to one. */
  employeeId: string | null;
  /** Whether the caller sees the whole workshop (boss, admin) or only their own records (staff). */
  seesAll: boolean;
}

/** Loads the caller's workshop time zone and employee link in one round trip. */
export async function callerOf({ business, user }: { business: BusinessService; user: UserContext }): Promise<Caller> {
  const row = await business.db
    .prepare(
      `SELECT t.time_zone, (SELECT e.id FROM employees e WHERE e.tenant_id = t.id AND e.person_id = ?2) AS employee_id
         FROM tenants t WHERE t.id = ?1`,
    )
    .bind(business.tenantId, user.userId)
    .first<{ time_zone: string; employee_id: string | null }>();
  if (!row) throw new AppError("not_found", "Your workshop no longer exists.");
  const timeZone = workshopTimeZone(row.time_zone);
  return {
    user,
    timeZone,
    today: localDate(business.clock(), timeZone),
    employeeId: row.employee_id,
    seesAll: can(user, "business:workshop"),
  };
}

/** The workshop's time zone, for the times its people are told (when a prepared write expires). */
export async function workshopTimeZoneOf({ business }: { business: BusinessService }): Promise<string> {
  const row = await business.db
    .prepare("SELECT time_zone FROM tenants WHERE id = ?1")
    .bind(business.tenantId)
    .first<{ time_zone: string | null }>();
  return workshopTimeZone(row?.time_zone);
}

/** What a staff member whose account is linked to no employee record is told, in the chat's words too (`refusalWords`). */
export const NOT_LINKED_MESSAGE =
  "Your account is not linked to an employee yet, so Weft cannot tell which piece records and pay are yours. Ask your boss to link it (Settings → People).";

/**
 * The employee a staff caller is limited to. Staff without a linked employee row are told so,
 * rather than shown nothing (as if they had no records) or everything.
 */
export function ownEmployeeId(caller: Caller): string {
  if (!caller.employeeId) throw new AppError("forbidden", NOT_LINKED_MESSAGE);
  return caller.employeeId;
}
