import type { Executor, Prepared } from "../actions/types.ts";
import { AppError } from "../errors.ts";
import type { Ambiguity, PreviewField } from "../shapes.ts";
import type { UserContext } from "../user-context.ts";
import { auditStatement, checkIfMatch, executeOnce, guard, MANAGER, requireManager, writtenByAudit } from "./changes.ts";
import { addDays } from "./local-time.ts";
import { money, yuan } from "./money.ts";
import { settle } from "./name-match.ts";
import { priceOnSql } from "./prices.ts";
import { processCandidates, styleCandidates } from "./processes.ts";
import type { BusinessService } from "./service.ts";
import { centsOf } from "./values.ts";
import { callerOf } from "./workshop.ts";

// A process's price changes from a day on: today unless said, never a day already past, so that no
// piece record entered before the change changes (each keeps the price it was entered with) and a
// record of a day from then on takes the new one. The change is kept beside the others.

/** How far ahead a price may be set: a year. */
const MAX_DAYS_AHEAD = 366;

export interface PriceInput {
  process: string;
  style?: string | undefined;
  unit_price: number;
  effective_from?: string | undefined;
}

/** A process's new price, checked, waiting to be written. */
export interface PriceWrite {
  processId: string;
  /** The process's version when prepared: a change to it meanwhile refuses this one. */
  version: number;
  /** 上领子（A01 男式衬衫）, for the audit and what changed. */
  what: string;
  name: string;
  active: boolean;
  unitPriceCents: number;
  /** Its price on `effectiveFrom` before this change, as the preview showed it. */
  beforeCents: number;
  effectiveFrom: string;
}

/**
 * Checks a process's new price (boss only) and previews it beside the price it replaces on that
 * day, writing nothing. A day already past is refused: records entered before keep their prices.
 */
export async function prepareProcessPrice({
  business,
  user,
  input,
  ifVersion,
}: {
  business: BusinessService;
  user: UserContext;
  input: PriceInput;
  ifVersion?: number[] | undefined;
}): Promise<Prepared<PriceWrite>> {
  requireManager(user);
  const caller = await callerOf({ business, user });
  const { tenantId } = business;
  const from = input.effective_from ?? caller.today;
  if (from < caller.today) {
    throw new AppError(
      "invalid_input",
      `date ${from} is before today (${caller.today} in this workshop): a price takes effect from today or a later day, so that no piece record already entered changes.`,
    );
  }
  if (from > addDays(caller.today, MAX_DAYS_AHEAD)) {
    throw new AppError("invalid_input", `date ${from} is more than a year ahead.`);
  }
  const cents = centsOf(input.unit_price, "unit_price");
  const style =
    input.style === undefined ? undefined : settle(await styleCandidates({ business, tenantId }), input.style, "styles", "style");
  const choose = (ambiguity: Ambiguity): Prepared<PriceWrite> => ({
    kind: "process_price",
    write: null,
    summary: `改单价：${input.process} ${yuan(cents)} 元/件，${from} 起`,
    preview: [{ label: ambiguity.field === "style" ? "款式" : "工序", value: "待选择" }],
    ambiguities: [ambiguity],
    needs: MANAGER,
  });
  if (style?.ambiguity) return choose(style.ambiguity);
  const candidates = await processCandidates({ business, tenantId, styleId: style?.item?.id, day: from });
  const process = settle(candidates, input.process, "processes", "process");
  if (process.ambiguity) return choose(process.ambiguity);
  const p = process.item;
  checkIfMatch(ifVersion, p, `The process ${p.name} (${p.styleLabel})`);
  const what = `${p.name}（${p.styleLabel}）`;
  if (p.unitPriceCents === cents) {
    throw new AppError("invalid_input", `${what} is already ${yuan(cents)} 元/件 on ${from}.`);
  }
  const preview: PreviewField[] = [
    { label: "工序", value: what },
    { label: "单价", value: `${yuan(p.unitPriceCents)} → ${yuan(cents)} 元/件` },
    { label: "生效日期", value: from === caller.today ? `${from} 起（今天）` : `${from} 起（今天是 ${caller.today}）` },
    { label: "已登记的计件", value: "不变，仍按登记时的单价" },
  ];
  const later = await business.db
    .prepare(
      `SELECT effective_from, unit_price_cents FROM process_prices
        WHERE tenant_id = ?1 AND process_id = ?2 AND effective_from > ?3 ORDER BY effective_from, created_at DESC LIMIT 1`,
    )
    .bind(tenantId, p.id, from)
    .first<{ effective_from: string; unit_price_cents: number }>();
  if (later) {
    preview.push({
      label: "提示",
      value: `${later.effective_from} 起已定为 ${yuan(later.unit_price_cents)} 元/件，那天起仍按那个单价`,
    });
  }
  if (!p.active) preview.push({ label: "提示", value: "这道工序已停用，启用以后才能按新单价登记" });
  return {
    kind: "process_price",
    write: {
      processId: p.id,
      version: p.version,
      what,
      name: p.name,
      active: p.active,
      unitPriceCents: cents,
      beforeCents: p.unitPriceCents,
      effectiveFrom: from,
    },
    summary: `改单价：${what} ${yuan(p.unitPriceCents)} → ${yuan(cents)} 元/件，${from} 起`,
    preview,
    ambiguities: [],
    needs: MANAGER,
  };
}

/** Why a prepared price may no longer be written: the process changed meanwhile, said as what changed. */
async function stalePrice(db: D1Database, tenantId: string, write: PriceWrite): Promise<string | null> {
  const row = await db
    .prepare(
      `SELECT p.name, p.active, p.version, ${priceOnSql("p", "?3")} AS cents FROM processes p WHERE p.id = ?1 AND p.tenant_id = ?2`,
    )
    .bind(write.processId, tenantId, write.effectiveFrom)
    .first<{ name: string; active: number; version: number; cents: number }>();
  if (!row) return `${write.what}已经不存在了。这次没有写入。`;
  if (row.version === write.version) return null;
  const changed = [
    ...(row.name !== write.name ? [`工序名称：${write.name} → ${row.name}`] : []),
    ...((row.active === 1) !== write.active ? [`状态：${write.active ? "启用 → 停用" : "停用 → 启用"}`] : []),
    ...(row.cents !== write.beforeCents
      ? [`${write.effectiveFrom} 的单价：${yuan(write.beforeCents)} → ${yuan(row.cents)} 元/件`]
      : []),
  ];
  return `准备之后，${write.what}被改过了${changed.length ? `（${changed.join("；")}）` : ""}。这次没有写入，请按现在的单价重新准备。`;
}

/** Writes a confirmed price: the change, the process's next version and the audit entry, in one batch. */
export function processPriceExecutor(business: BusinessService): Executor<PriceWrite> {
  const { db } = business;
  return {
    kind: "process_price",
    label: { zh: "工序单价", en: "Process price" },
    written: ({ actionId, owner }) => writtenByAudit(db, actionId, owner.tenantId),
    execute: ({ actionId, owner, write, summary, approval }) => {
      const tenantId = owner.tenantId;
      return executeOnce({
        db,
        actionId,
        tenantId,
        stale: () => stalePrice(db, tenantId, write),
        statements: () => [
          guard(
            db,
            "EXISTS (SELECT 1 FROM processes WHERE id = ?1 AND tenant_id = ?2 AND version = ?3)",
            write.processId,
            tenantId,
            write.version,
          ),
          db
            .prepare(
              `INSERT INTO process_prices (id, tenant_id, process_id, unit_price_cents, effective_from, set_by, action_id)
               VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)`,
            )
            .bind(
              `pp-${actionId.slice(0, 32)}`,
              tenantId,
              write.processId,
              write.unitPriceCents,
              write.effectiveFrom,
              owner.userId,
              actionId,
            ),
          db
            .prepare("UPDATE processes SET version = version + 1 WHERE id = ?1 AND tenant_id = ?2 AND version = ?3")
            .bind(write.processId, tenantId, write.version),
          auditStatement(
            db,
            { owner, actionId, kind: "process_price", entityId: write.processId, summary, approval },
            {
              json: {
                before: { process: write.what, unit_price: money(write.beforeCents), effective_from: write.effectiveFrom },
                after: { process: write.what, unit_price: money(write.unitPriceCents), effective_from: write.effectiveFrom },
              },
            },
          ),
        ],
      });
    },
  };
}
