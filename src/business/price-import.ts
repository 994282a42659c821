import type { Executor, Prepared } from "../actions/types.ts";
import { AppError } from "../errors.ts";
import type { ImportProblem, ImportReport } from "../shapes.ts";
import type { UserContext } from "../user-context.ts";
import { auditStatement, executeOnce, MANAGER, requireManager, rowsStillAsRead, writtenByAudit } from "./changes.ts";
import { firstFew, type ImportSheet, problemAt, tableRows } from "./import-sheets.ts";
import { money, yuan } from "./money.ts";
import { priceOnSql } from "./prices.ts";
import type { BusinessService } from "./service.ts";
import { centsOfCell, nameOf } from "./values.ts";
import { callerOf } from "./workshop.ts";

// A price list from a sheet: each row a style's process and its price per piece (款号 or 款式, 工序,
// 单价), the style written once above its processes or on every row; a sheet without a style column
// is the style its name says (or the workshop's only one). A style the workshop lacks is added, a
// process its style lacks is added with the price, a process whose price differs gets the new price
// from the day the import says (today unless said, never a day past). All in one batch.

const COLUMNS = {
  style_code: ["款号", "款式编号", "款式代码", "款式号", "style_code", "code"],
  style: ["款式", "款式名称", "款名", "style"],
  process: ["工序", "工序名称", "工序名", "process"],
  price: ["单价", "工价", "价格", "单价元", "计件单价", "price", "unit_price"],
} as const;

export interface PriceImportWrite {
  file: string;
  effectiveFrom: string;
  styles: { id: string; code: string; name: string }[];
  processes: { id: string; style_id: string; name: string; cents: number; sort_order: number; what: string }[];
  prices: { process_id: string; version: number; cents: number; before: number; what: string }[];
}

interface StyleRow {
  id: string;
  code: string;
  name: string;
}

interface ProcessRow {
  id: string;
  style_id: string;
  name: string;
  version: number;
  cents: number;
  sort_order: number;
}

const STYLE_CODE = /^[0-9A-Za-z_-]{1,20}$/;

/** A style's code or name as compared: no spaces, full-width letters as half-width, lower case. */
const nameKey = (text: string) => text.normalize("NFKC").replace(/\s+/g, "").toLowerCase();

/**
 * What importing a price list would do (boss only): styles and processes to add, prices to change
 * from `effectiveFrom`, rows that change nothing, rows with problems; held as a pending action,
 * writing nothing.
 */
export async function preparePriceImport({
  business,
  user,
  file,
  sheets,
  effectiveFrom,
}: {
  business: BusinessService;
  user: UserContext;
  file: string;
  sheets: readonly ImportSheet[];
  effectiveFrom?: string | undefined;
}): Promise<{ prepared: Prepared<PriceImportWrite>; report: ImportReport }> {
  requireManager(user);
  const caller = await callerOf({ business, user });
  const from = effectiveFrom ?? caller.today;
  if (from < caller.today) {
    throw new AppError(
      "invalid_input",
      `effective_from ${from} is before today (${caller.today}): prices change from today or a later day.`,
    );
  }
  const { rows, skipped, found } = tableRows<keyof typeof COLUMNS>(sheets, COLUMNS, {
    required: ["process", "price"],
    fillDown: ["style_code", "style"],
  });
  if (rows.length === 0) {
    throw new AppError(
      "invalid_input",
      `No prices found in ${file}: a sheet needs a header row naming a 工序 and a 单价 column (and 款号 or 款式, unless the sheet is named by its style), with a process on each row below it.`,
    );
  }
  const { tenantId, db } = business;
  const [styleRows, processRows] = await db.batch<Record<string, unknown>>([
    db.prepare("SELECT id, code, name FROM styles WHERE tenant_id = ?1").bind(tenantId),
    db
      .prepare(
        `SELECT p.id, p.style_id, p.name, p.version, p.sort_order, ${priceOnSql("p", "?2")} AS cents FROM processes p WHERE p.tenant_id = ?1`,
      )
      .bind(tenantId, from),
  ]);
  const styles = (styleRows?.results ?? []) as unknown as StyleRow[];
  const processes = (processRows?.results ?? []) as unknown as ProcessRow[];
  const styleBy = new Map<string, StyleRow>();
  for (const s of styles) {
    styleBy.set(nameKey(s.code), s);
    styleBy.set(nameKey(s.name), s);
  }
  const problems: ImportProblem[] = [];
  const report: ImportReport = { file, add: [], change: [], unchanged: 0, problems, skipped_sheets: skipped };
  const write: PriceImportWrite = { file, effectiveFrom: from, styles: [], processes: [], prices: [] };
  const newStyles = new Map<string, StyleRow>();
  const seen = new Map<string, number>();
  const sortOf = new Map<string, number>();
  for (const p of processes) sortOf.set(p.style_id, Math.max(sortOf.get(p.style_id) ?? 0, p.sort_order));
  let generated = 0;
  const freeCode = () => {
    let code: string;
    do code = `S${String(++generated).padStart(2, "0")}`;
    while (styleBy.has(nameKey(code)) || newStyles.has(nameKey(code)));
    return code;
  };

  for (const row of rows) {
    const styleSaid =
      row.cells.style_code || row.cells.style || (found.includes("style_code") || found.includes("style") ? "" : row.sheet);
    let style =
      styleBy.get(nameKey(row.cells.style_code)) ?? styleBy.get(nameKey(row.cells.style)) ?? styleBy.get(nameKey(styleSaid));
    // A sheet with no style column and a name no style has (Sheet1, 工价): the workshop's only style.
    if (!style && styleSaid === row.sheet && styles.length === 1) style = styles[0];
    if (!style) {
      if (styleSaid === "" || styleSaid === row.sheet) {
        problems.push(
          problemAt(row, "款号", styleSaid === "" ? "没有款号或款式" : `工作表「${row.sheet}」不是已有的款式：加一列「款号」`),
        );
        continue;
      }
      const key = nameKey(styleSaid);
      style = newStyles.get(key);
      if (!style) {
        const code =
          row.cells.style_code && STYLE_CODE.test(row.cells.style_code)
            ? row.cells.style_code
            : STYLE_CODE.test(styleSaid)
              ? styleSaid
              : freeCode();
        const name = row.cells.style || styleSaid;
        style = { id: `st-${crypto.randomUUID()}`, code, name };
        newStyles.set(key, style);
        newStyles.set(nameKey(code), style);
        write.styles.push(style);
        report.add.push({ sheet: row.sheet, row: row.row, text: `新款式 ${code} ${name}` });
      }
    }
    let name: string;
    try {
      name = nameOf(row.cells.process, "工序");
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      problems.push(problemAt(row, "工序", row.cells.process === "" ? "没有工序名称" : error.message.replace(/^[^:]+: /, "")));
      continue;
    }
    const cents = centsOfCell(row.cells.price);
    if (cents === null) {
      problems.push(
        problemAt(
          row,
          "单价",
          row.cells.price === "" ? "没有单价" : `“${row.cells.price.slice(0, 20)}”不是 0 到 100000 元之间、最多两位小数的金额`,
        ),
      );
      continue;
    }
    const styleLabel = `${style.code} ${style.name}`;
    const key = `${style.id}\u0000${name}`;
    const again = seen.get(key);
    if (again !== undefined) {
      problems.push(problemAt(row, "工序", `${styleLabel} 的 ${name} 和第 ${again} 行重复`));
      continue;
    }
    seen.set(key, row.row);
    const what = `${styleLabel} ${name}`;
    const existing = processes.find((p) => p.style_id === style.id && p.name === name);
    if (!existing) {
      const sort = (sortOf.get(style.id) ?? 0) + 1;
      sortOf.set(style.id, sort);
      write.processes.push({ id: `p-${crypto.randomUUID()}`, style_id: style.id, name, cents, sort_order: sort, what });
      report.add.push({ sheet: row.sheet, row: row.row, text: `${what} ${yuan(cents)} 元/件` });
    } else if (existing.cents === cents) report.unchanged++;
    else {
      write.prices.push({ process_id: existing.id, version: existing.version, cents, before: existing.cents, what });
      report.change.push({
        sheet: row.sheet,
        row: row.row,
        text: `${what} 单价（${from} 起）`,
        before: `${yuan(existing.cents)} 元/件`,
        after: `${yuan(cents)} 元/件`,
      });
    }
  }
  const changes = write.styles.length + write.processes.length + write.prices.length;
  return {
    report,
    prepared: {
      kind: "price_import",
      write: changes > 0 ? write : null,
      summary: `导入工价表：新增 ${write.styles.length} 个款式、${write.processes.length} 道工序，改 ${write.prices.length} 个单价（${file}）`,
      preview: [
        { label: "文件", value: file },
        {
          label: "新增款式",
          value: write.styles.length
            ? firstFew(
                write.styles.map((s) => `${s.code} ${s.name}`),
                5,
                "、",
              )
            : "无",
        },
        {
          label: "新增工序",
          value: write.processes.length
            ? `${write.processes.length} 道：${firstFew(
                write.processes.map((p) => `${p.what} ${yuan(p.cents)}`),
                5,
              )}`
            : "无",
        },
        {
          label: "改单价",
          value: write.prices.length
            ? `${write.prices.length} 道，${from} 起：${firstFew(
                write.prices.map((p) => `${p.what} ${yuan(p.before)} → ${yuan(p.cents)}`),
                5,
              )}`
            : "无",
        },
        { label: "不变", value: `${report.unchanged} 道` },
        {
          label: "有问题，不导入",
          value: problems.length
            ? `${problems.length} 行：${firstFew(
                problems.map((p) => `第 ${p.row} 行「${p.column}」${p.message}`),
                5,
              )}`
            : "无",
        },
        ...(write.prices.length ? [{ label: "已登记的计件", value: "不变，仍按登记时的单价" }] : []),
      ],
      ambiguities: [],
      needs: MANAGER,
    },
  };
}

/** Why a price list prepared earlier may no longer be written: a style or process it adds exists now, or a price it changes was changed. */
async function staleImport(db: D1Database, tenantId: string, write: PriceImportWrite): Promise<string | null> {
  const [styles, processes, moved] = await db.batch<{ what: string }>([
    db
      .prepare(
        `SELECT s.code || ' ' || s.name AS what FROM styles s JOIN json_each(?2) j ON s.code = json_extract(j.value, '$.code')
          WHERE s.tenant_id = ?1 LIMIT 5`,
      )
      .bind(tenantId, JSON.stringify(write.styles)),
    db
      .prepare(
        `SELECT p.name AS what FROM processes p JOIN json_each(?2) j
            ON p.style_id = json_extract(j.value, '$.style_id') AND p.name = json_extract(j.value, '$.name')
          WHERE p.tenant_id = ?1 LIMIT 5`,
      )
      .bind(tenantId, JSON.stringify(write.processes)),
    db
      .prepare(
        `SELECT p.name AS what FROM processes p JOIN json_each(?2) j ON p.id = json_extract(j.value, '$.process_id')
          WHERE p.tenant_id = ?1 AND p.version != json_extract(j.value, '$.version') LIMIT 5`,
      )
      .bind(tenantId, JSON.stringify(write.prices)),
  ]);
  const changed = [
    ...(styles?.results ?? []).map((r) => `款式 ${r.what} 已经有了`),
    ...(processes?.results ?? []).map((r) => `工序 ${r.what} 已经有了`),
    ...(moved?.results ?? []).map((r) => `${r.what} 的单价或资料被改过`),
  ];
  return changed.length ? `准备导入之后，款式和工序变了：${changed.join("；")}。这次什么都没有写入，请重新导入。` : null;
}

/** Writes a confirmed price list in one batch: new styles, new processes, new prices, one audit entry. */
export function priceImportExecutor(business: BusinessService): Executor<PriceImportWrite> {
  const { db } = business;
  return {
    kind: "price_import",
    label: { zh: "导入工价表", en: "Price list import" },
    written: ({ actionId, owner }) => writtenByAudit(db, actionId, owner.tenantId),
    execute: ({ actionId, owner, write, summary, approval }) => {
      const tenantId = owner.tenantId;
      const styles = JSON.stringify(write.styles);
      const processes = JSON.stringify(write.processes);
      const prices = JSON.stringify(write.prices.map((p, i) => ({ ...p, id: `pp-${actionId.slice(0, 24)}-${i}` })));
      return executeOnce({
        db,
        actionId,
        tenantId,
        stale: () => staleImport(db, tenantId, write),
        statements: () => [
          rowsStillAsRead(db, tenantId, { table: "processes", idField: "process_id", rows: prices }),
          db
            .prepare(
              `INSERT INTO styles (id, tenant_id, code, name)
               SELECT json_extract(value, '$.id'), ?1, json_extract(value, '$.code'), json_extract(value, '$.name') FROM json_each(?2)`,
            )
            .bind(tenantId, styles),
          db
            .prepare(
              `INSERT INTO processes (id, tenant_id, style_id, name, unit_price_cents, sort_order)
               SELECT json_extract(value, '$.id'), ?1, json_extract(value, '$.style_id'), json_extract(value, '$.name'),
                      json_extract(value, '$.cents'), json_extract(value, '$.sort_order') FROM json_each(?2)`,
            )
            .bind(tenantId, processes),
          db
            .prepare(
              `INSERT INTO process_prices (id, tenant_id, process_id, unit_price_cents, effective_from, set_by)
               SELECT json_extract(value, '$.id'), ?1, json_extract(value, '$.process_id'), json_extract(value, '$.cents'), ?3, ?4
                 FROM json_each(?2)`,
            )
            .bind(tenantId, prices, write.effectiveFrom, owner.userId),
          db
            .prepare(
              "UPDATE processes SET version = version + 1 WHERE tenant_id = ?1 AND id IN (SELECT json_extract(value, '$.process_id') FROM json_each(?2))",
            )
            .bind(tenantId, prices),
          auditStatement(
            db,
            { owner, actionId, kind: "price_import", entityId: `import-${actionId.slice(0, 32)}`, summary, approval },
            {
              json: {
                before: { prices: write.prices.map((p) => ({ process: p.what, unit_price: money(p.before) })) },
                after: {
                  file: write.file,
                  effective_from: write.effectiveFrom,
                  styles_added: write.styles.length,
                  processes_added: write.processes.length,
                  prices_changed: write.prices.length,
                  styles: write.styles.map((s) => ({ code: s.code, name: s.name })),
                  processes: write.processes.map((p) => ({ process: p.what, unit_price: money(p.cents) })),
                  prices: write.prices.map((p) => ({ process: p.what, unit_price: money(p.cents) })),
                },
              },
            },
          ),
        ],
      });
    },
  };
}
