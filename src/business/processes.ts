import { decodeCursor, page } from "../cursor.ts";
import { money, yuan } from "./money.ts";
import type { Named } from "./name-match.ts";
import type { BusinessService } from "./service.ts";
import { Where } from "./where.ts";

export interface ProcessRow {
  id: string;
  name: string;
  /** Its style by code and name, as people and the filters name it. */
  style: { code: string; name: string };
  /** The price per piece now, in cents and yuan, as every amount is given. */
  unit_price: { cents: number; yuan: string };
  active: boolean;
}

export type ProcessCandidate = Named & { styleId: string; unitPriceCents: number; active: boolean; styleLabel: string };

/** A style (款式) as a candidate for a name or code. */
export type StyleCandidate = Named & { code: string };

/** The workshop's processes as candidates for a name, optionally of one style only. */
export async function processCandidates({
  business,
  tenantId,
  styleId,
}: {
  business: BusinessService;
  tenantId: string;
  styleId?: string | undefined;
}): Promise<ProcessCandidate[]> {
  const w = new Where();
  w.add(`p.tenant_id = ${w.param(tenantId)}`);
  if (styleId) w.add(`p.style_id = ${w.param(styleId)}`);
  const { results } = await business.db
    .prepare(
      `SELECT p.id, p.name, p.style_id, p.unit_price_cents, p.active, s.code, s.name AS style_name
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
      code: string;
      style_name: string;
    }>();
  return results.map((r) => ({
    id: r.id,
    name: r.name,
    label: `${r.name} (${r.code} ${r.style_name}, ${yuan(r.unit_price_cents)} 元/件${r.active ? "" : ", 已停用"})`,
    styleId: r.style_id,
    styleLabel: `${r.code} ${r.style_name}`,
    unitPriceCents: r.unit_price_cents,
    active: r.active === 1,
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
    .prepare("SELECT id, code, name FROM styles WHERE tenant_id = ?1 ORDER BY code")
    .bind(tenantId)
    .all<{ id: string; code: string; name: string }>();
  return results.map((r) => ({
    id: r.id,
    code: r.code,
    name: r.name,
    label: `${r.code} ${r.name}`,
    aliases: [r.code, `${r.code}${r.name}`],
  }));
}

/** A page of processes with their current prices, by style and then the order they are done in. */
export async function listProcesses({
  business,
  tenantId,
  styleId,
  nameContains,
  includeInactive,
  limit,
  cursor,
}: {
  business: BusinessService;
  tenantId: string;
  styleId?: string | undefined;
  nameContains?: string | undefined;
  includeInactive: boolean;
  limit: number;
  cursor?: string | undefined;
}): Promise<{ items: ProcessRow[]; next_cursor: string | null; total: number }> {
  const w = new Where();
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
        `SELECT p.id, p.name, p.unit_price_cents, p.active, p.sort_order, s.code, s.name AS style_name
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
  return { items: paged.items.map((i) => i.row), next_cursor: paged.next_cursor, total: Number(count?.results[0]?.total ?? 0) };
}
