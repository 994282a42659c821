import { forbidden } from "../errors.ts";
import { employeeCandidates } from "./employees.ts";
import { matchName, requireMatch } from "./name-match.ts";
import { orderCandidates } from "./orders.ts";
import { processCandidates, styleCandidates } from "./processes.ts";
import type { BusinessService } from "./service.ts";
import { type Caller, ownEmployeeId } from "./workshop.ts";

/**
 * The employee a read is limited to. Staff are always limited to themselves (naming someone else
 * is refused, not silently ignored); a boss is limited only when they name someone.
 */
export async function employeeFilter({
  business,
  caller,
  employee,
}: {
  business: BusinessService;
  caller: Caller;
  employee?: string | undefined;
}): Promise<string | undefined> {
  if (!caller.seesAll) {
    const own = ownEmployeeId(caller);
    if (employee !== undefined) {
      const match = matchName(await employeeCandidates({ business, tenantId: business.tenantId }), employee);
      const named = match.kind === "found" ? [match.item] : match.kind === "ambiguous" ? match.candidates : [];
      if (!named.some((e) => e.id === own)) throw forbidden("Staff can see only their own records. Leave out employee.");
    }
    return own;
  }
  if (employee === undefined) return undefined;
  return requireMatch(await employeeCandidates({ business, tenantId: business.tenantId }), employee, "Employee", "employee").id;
}

/**
 * The processes a read filter names. A name shared by processes of several styles (裁剪) means
 * all of them; otherwise the usual forgiving match.
 */
export async function processFilter({
  business,
  tenantId,
  process,
}: {
  business: BusinessService;
  tenantId: string;
  process?: string | undefined;
}): Promise<string[] | undefined> {
  if (process === undefined) return undefined;
  const items = await processCandidates({ business, tenantId });
  const match = matchName(items, process);
  if (match.kind === "ambiguous" && new Set(match.candidates.map((c) => c.name)).size === 1) {
    return items.filter((p) => p.name === match.candidates[0]?.name).map((p) => p.id);
  }
  return [requireMatch(items, process, "Process", "process").id];
}

/** The order a read filter names: its number, id, or words from its customer or style. */
export async function orderFilter({
  business,
  tenantId,
  order,
}: {
  business: BusinessService;
  tenantId: string;
  order?: string | undefined;
}): Promise<string | undefined> {
  if (order === undefined) return undefined;
  return requireMatch(await orderCandidates({ business, tenantId, openOnly: false }), order, "Order", "order").id;
}

/** The style a read filter names, by code (A01) or name. */
export async function styleFilter({
  business,
  tenantId,
  style,
}: {
  business: BusinessService;
  tenantId: string;
  style?: string | undefined;
}): Promise<string | undefined> {
  if (style === undefined) return undefined;
  return requireMatch(await styleCandidates({ business, tenantId }), style, "Style", "style").id;
}
