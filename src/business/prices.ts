import { money } from "./money.ts";
import type { BusinessService } from "./service.ts";

// A process's price on a day is the latest change in effect by then (`process_prices`, the later
// of two for one day winning), else the price it started with (`processes.unit_price_cents`). A
// piece record copies the price of its work date when it is written, and never changes after.

/** The most a price or an amount may be, in cents: 100,000 元. */
export const MAX_CENTS = 10_000_000;

/**
 * SQL for the price of the process aliased `p` on the day `day` (a SQL expression: a parameter
 * or a column), in cents.
 *
 * @example `SELECT ${priceOnSql("p", "?2")} AS cents FROM processes p WHERE p.id = ?1`
 */
export function priceOnSql(p: string, day: string): string {
  return `COALESCE((SELECT pp.unit_price_cents FROM process_prices pp
                     WHERE pp.tenant_id = ${p}.tenant_id AND pp.process_id = ${p}.id AND pp.effective_from <= ${day}
                     ORDER BY pp.effective_from DESC, pp.created_at DESC, pp.id DESC LIMIT 1), ${p}.unit_price_cents)`;
}

/** One price of a process as its history lists it. */
export interface PriceEntry {
  unit_price: { cents: number; yuan: string };
  /** The workshop date it applies from; `null` for the price the process started with. */
  from: string | null;
  /** When it was set (UTC), and by whom (a person's id; `null` for the starting price and demo data). */
  set_at: string;
  set_by: string | null;
  /** A later change for the same day replaced it. */
  replaced: boolean;
}

/**
 * The price history of each of `processIds`, oldest first: the price it started with, then every
 * change in the order of the days they apply from (and, for one day, the order they were set).
 */
export async function priceHistories({
  business,
  processIds,
}: {
  business: BusinessService;
  processIds: readonly string[];
}): Promise<Map<string, PriceEntry[]>> {
  const out = new Map<string, PriceEntry[]>();
  if (processIds.length === 0) return out;
  const list = JSON.stringify(processIds);
  const { db, tenantId } = business;
  const [starts, changes] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT id, unit_price_cents, created_at FROM processes
          WHERE tenant_id = ?1 AND id IN (SELECT value FROM json_each(?2))`,
      )
      .bind(tenantId, list),
    db
      .prepare(
        `SELECT process_id, unit_price_cents, effective_from, created_at, set_by FROM process_prices
          WHERE tenant_id = ?1 AND process_id IN (SELECT value FROM json_each(?2))
          ORDER BY process_id, effective_from, created_at, id`,
      )
      .bind(tenantId, list),
  ]);
  for (const r of starts?.results ?? []) {
    out.set(String(r.id), [
      {
        unit_price: money(Number(r.unit_price_cents)),
        from: null,
        set_at: String(r.created_at),
        set_by: null,
        replaced: false,
      },
    ]);
  }
  for (const r of changes?.results ?? []) {
    const history = out.get(String(r.process_id));
    if (!history) continue;
    const last = history[history.length - 1];
    if (last && last.from === r.effective_from) last.replaced = true;
    history.push({
      unit_price: money(Number(r.unit_price_cents)),
      from: String(r.effective_from),
      set_at: String(r.created_at),
      set_by: (r.set_by as string | null) ?? null,
      replaced: false,
    });
  }
  return out;
}

/** The price in effect on `day` by a history from `priceHistories` (the last entry in effect by then). */
export function priceOn(history: readonly PriceEntry[], day: string): PriceEntry | undefined {
  let found: PriceEntry | undefined;
  for (const entry of history) if (entry.from === null || entry.from <= day) found = entry;
  return found;
}

/** The first change after `day`, if one is set: the price the process will have, and from when. */
export function nextPrice(history: readonly PriceEntry[], day: string): PriceEntry | undefined {
  const later = history.filter((entry) => entry.from !== null && entry.from > day);
  const first = later[0]?.from;
  // For one day, the last set wins.
  return first === undefined ? undefined : later.filter((entry) => entry.from === first).pop();
}
