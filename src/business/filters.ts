import { forbidden } from "../errors.ts";
import { employeeCandidates } from "./employees.ts";
import { matchName, type Named, requireMatch } from "./name-match.ts";
import { orderCandidates } from "./orders.ts";
import { processCandidates, styleCandidates } from "./processes.ts";
import type { BusinessService } from "./service.ts";
import { type Caller, ownEmployeeId } from "./workshop.ts";

/**
 * What a read filter resolved to: the id(s) the query uses, the words an answer names it by
 * (张三 (工号 001), 上领子 (A01 男式衬衫)), and what the person said when it was read as something
 * else (领子 read as 上领子), so the answer can say what it assumed.
 */
export interface Resolved {
  ids: string[];
  label: string;
  /** The words as given, when they were not the record's own name, number or id. */
  readFrom?: string;
}

function normalize(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/g, "");
}

function resolved(item: Named, label: string, query: string): Resolved {
  const own = [item.id, item.name, ...(item.aliases ?? [])].some((handle) => normalize(handle) === normalize(query));
  return { ids: [item.id], label, ...(own ? {} : { readFrom: query }) };
}

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
}): Promise<Resolved | undefined> {
  if (!caller.seesAll) {
    const own = ownEmployeeId(caller);
    const candidates = await employeeCandidates({ business, tenantId: business.tenantId });
    if (employee !== undefined) {
      const match = matchName(candidates, employee);
      const named = match.kind === "found" ? [match.item] : match.kind === "ambiguous" ? match.candidates : [];
      if (!named.some((e) => e.id === own)) throw forbidden("Staff can see only their own records. Leave out employee.");
    }
    const self = candidates.find((e) => e.id === own);
    return { ids: [own], label: self?.label ?? own };
  }
  if (employee === undefined) return undefined;
  const item = requireMatch(
    await employeeCandidates({ business, tenantId: business.tenantId }),
    employee,
    "Employee",
    "employee",
  );
  return resolved(item, item.label, employee);
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
}): Promise<Resolved | undefined> {
  if (process === undefined) return undefined;
  const items = await processCandidates({ business, tenantId });
  const match = matchName(items, process);
  if (match.kind === "ambiguous" && new Set(match.candidates.map((c) => c.name)).size === 1) {
    const name = match.candidates[0]?.name ?? process;
    const all = items.filter((p) => p.name === name);
    return { ids: all.map((p) => p.id), label: `${name} (${all.map((p) => p.styleLabel).join("、")})` };
  }
  const item = requireMatch(items, process, "Process", "process");
  return resolved(item, `${item.name} (${item.styleLabel})`, process);
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
}): Promise<Resolved | undefined> {
  if (order === undefined) return undefined;
  const item = requireMatch(await orderCandidates({ business, tenantId, openOnly: false }), order, "Order", "order");
  return resolved(item, item.name, order);
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
}): Promise<Resolved | undefined> {
  if (style === undefined) return undefined;
  const item = requireMatch(await styleCandidates({ business, tenantId }), style, "Style", "style");
  return resolved(item, item.label, style);
}
