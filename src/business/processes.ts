import { decodeCursor, page } from "../cursor.ts";
import { money, yuan } from "./money.ts";
import type { Named } from "./name-match.ts";
import { nextPrice, type PriceEntry, priceHistories, priceOnSql } from "./prices.ts";
import type { BusinessService } from "./service.ts";
import { Where } from "./where.ts";

export interface ProcessRow {
  id: string;
  name: string;
  /** Its style by code and name, as people and the filters name it. */
  style: { code: string; name: string };
  /** The price per piece today, in cents and yuan, as every amount is given. */
  unit_price: { cents: number; yuan: string };
  active: boolean;
  /** The next price change already set, if one is: its price and the day it applies from. */
  next_price?: { unit_price: { cents: number; yuan: string }; from: string };
  /** Every price it has had and will have, oldest first; only when asked for. */
  price_history?: { unit_price: { cents: number; yuan: string }; from: string | null; set_at: string; replaced: boolean }[];
}

/** A process as a name settles to it, with its price on the day asked about. */
export type ProcessCandidate = Named & {
  styleId: string;
  unitPriceCents: number;
  active: boolean;
  styleLabel: string;
  version: number;
};

/** A style (款式) as a candidate for a name or code. */
export type StyleCandidate = Named & { code: string; version: number };

/**
 * The workshop's processes as candidates for a name, optionally of one style only, each with its
 * price on `day` (the workshop's date); without a day, labels leave the price out.
 */
export async function processCandidates({
  business,
  tenantId,
  styleId,
  day,
}: {
  business: BusinessService;
  tenantId: string;
  styleId?: string | undefined;
  day?: string | undefined;
}): Promise<ProcessCandidate[]> {
  const w = new Where();
  const on = w.param(day ?? "");
  w.add(`p.tenant_id = ${w.param(tenantId)}`);
  if (styleId) w.add(`p.style_id = ${w.param(styleId)}`);
  const { results } = await business.db
    .prepare(
      `SELECT p.id, p.name, p.style_id, ${priceOnSql("p", on)} AS unit_price_cents, p.active, p.version, s.code, s.name AS style_name
         FROM processes p JOIN styles s ON s.id = p.style_id AND s.tenant_id = p.tenant_id
        WHERE ${w.sql} ORDER BY s.code, p.sort_order, p.id`,
    )
    .bind(...w.params)
    .all<{
      id: string;
      name: string;
      style_id: string;
      unit_price_cents: number;
      active: number;
      version: number;
      code: string;
      style_name: string;
    }>();
  return results.map((r) => ({
    id: r.id,
    name: r.name,
    label: `${r.name} (${r.code} ${r.style_name}${day ? `, ${yuan(r.unit_price_cents)} 元/件` : ""}${r.active ? "" : ", 已停用"})`,
    styleId: r.style_id,
    styleLabel: `${r.code} ${r.style_name}`,
    unitPriceCents: r.unit_price_cents,
    active: r.active === 1,
    version: r.version,
  }));
}

/** The workshop's styles as candidates: by code (A01) or name (男式衬衫). */
export async function styleCandidates({
  business,
  tenantId,
}: {
  business: BusinessService;
  tenantId: string;
}): Promise<StyleCandidate[]> {
  const { results } = await business.db
    .prepare("SELECT id, code, name, version FROM styles WHERE tenant_id = ?1 ORDER BY code")
    .bind(tenantId)
    .all<{ id: string; code: string; name: string; version: number }>();
  return results.map((r) => ({
    id: r.id,
    code: r.code,
    version: r.version,
    name: r.name,
    label: `${r.code} ${r.name}`,
    aliases: [r.code, `${r.code}${r.name}`],
  }));
}

/**
 * A page of processes with their prices on `today` (the workshop's date) and the next change set,
 * by style and then the order they are done in; with `withHistory`, every price each has had.
 */
export async function listProcesses({
  business,
  tenantId,
  today,
  styleId,
  nameContains,
  includeInactive,
  withHistory = false,
  limit,
  cursor,
}: {
  business: BusinessService;
  tenantId: string;
  today: string;
  styleId?: string | undefined;
  nameContains?: string | undefined;
  includeInactive: boolean;
  withHistory?: boolean;
  limit: number;
  cursor?: string | undefined;
}): Promise<{ items: ProcessRow[]; next_cursor: string | null; total: number }> {
  const w = new Where();
  const on = w.param(today);
  w.add(`p.tenant_id = ${w.param(tenantId)}`);
  if (styleId) w.add(`p.style_id = ${w.param(styleId)}`);
  if (nameContains) w.add(`instr(p.name, ${w.param(nameContains)}) > 0`);
  if (!includeInactive) w.add("p.active = 1");
  const p = w.copy();
  if (cursor) {
    const [code, sort, id] = decodeCursor(cursor, 3);
    p.add(`(s.code, p.sort_order, p.id) > (${p.param(String(code))}, ${p.param(Number(sort))}, ${p.param(String(id))})`);
  }
  const from = "FROM processes p JOIN styles s ON s.id = p.style_id AND s.tenant_id = p.tenant_id";
  const [rows, count] = await business.db.batch<Record<string, unknown>>([
    business.db
      .prepare(
        `SELECT p.id, p.name, ${priceOnSql("p", on)} AS unit_price_cents, p.active, p.sort_order, s.code, s.name AS style_name
           ${from} WHERE ${p.sql} ORDER BY s.code, p.sort_order, p.id LIMIT ${limit + 1}`,
      )
      .bind(...p.params),
    business.db.prepare(`SELECT COUNT(*) AS total ${from} WHERE ${w.sql}`).bind(...w.params),
  ]);
  const items = (rows?.results ?? []).map((r) => ({
    row: {
      id: String(r.id),
      name: String(r.name),
      style: { code: String(r.code), name: String(r.style_name) },
      unit_price: money(Number(r.unit_price_cents)),
      active: r.active === 1,
    },
    sort: Number(r.sort_order),
  }));
  const paged = page(items, limit, (r) => [r.row.style.code, r.sort, r.row.id]);
  const histories = await priceHistories({ business, processIds: paged.items.map((i) => i.row.id) });
  const withPrices = paged.items.map(({ row }): ProcessRow => {
    const history = histories.get(row.id) ?? [];
    const next = nextPrice(history, today);
    return {
      ...row,
      ...(next?.from ? { next_price: { unit_price: next.unit_price, from: next.from } } : {}),
      ...(withHistory ? { price_history: history.map(historyEntry) } : {}),
    };
  });
  return { items: withPrices, next_cursor: paged.next_cursor, total: Number(count?.results[0]?.total ?? 0) };
}

function historyEntry({ unit_price, from, set_at, replaced }: PriceEntry) {
  return { unit_price, from, set_at, replaced };
}
