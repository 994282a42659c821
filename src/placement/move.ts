import { AppError, badRequest, conflict, notFound } from "../errors.ts";
import { createKeywordTableStatements, insertTermsStatement } from "../search/keyword-index.ts";
import { sha256Hex } from "../sha256.ts";
import { PRIMARY_SHARD as PRIMARY } from "../workshop-db.ts";
import { deleteWorkshopRows } from "./rows.ts";
import { keywordTableOf, PAGE_ROWS, type TableLayout, tableLayouts } from "./tables.ts";

/**
 * How long a move waits after fencing a workshop before copying it: past the longest request that
 * may have begun before the fence (a chat turn runs at most 120 s) and past the 30 s for which an
 * isolate trusts an API key's placement. Then no write to the old shard is still on its way.
 */
export const FENCE_SETTLE_MS = 150_000;
/** How long the old shard's rows stay after the switch, for reads routed before it to finish. */
export const CLEANUP_AFTER_MS = 150_000;

export type MoveState = "fenced" | "copying" | "verifying" | "switched";

/** Where a move stands, and what its caller should do next. */
export interface MoveReport {
  workshop: string;
  from: string;
  to: string;
  state: MoveState | "done";
  /** `continue`: call again now; `wait`: call again after `retry_after_seconds`; `done`: finished. */
  next: "continue" | "wait" | "done";
  retry_after_seconds?: number;
  /** The table being copied or checked, and how many of its rows are done. */
  table?: { name: string; rows_done: number };
  /** Once checked: each table's rows, the same on both shards. */
  checked?: Record<string, number>;
}

interface MoveRow {
  id: string;
  shard: string;
  move_to: string | null;
  move_from: string | null;
  move_state: MoveState | null;
  move_since: string | null;
  move_progress: string | null;
}

/** How far a copy or a check has got: the table's index in layout order, the last key done, the rows done. */
interface Progress {
  table: number;
  after: unknown[] | null;
  rows: number;
  checked?: Record<string, number>;
}

/** What a move runs on: the directory, and every database a workshop may live on, by binding name. */
export interface MoveContext {
  directory: D1Database;
  shards: ReadonlyMap<string, D1Database>;
}

/**
 * Takes one bounded step of moving a workshop to the shard `to`, and says what to do next. The
 * steps: fence the workshop (its data read-only; writes get 503 with Retry-After) and wait until no
 * earlier write can still arrive; copy its rows page by page, parents first; check every table page
 * by page (same rows, same order, same SHA-256 on both shards); switch the directory to the copy in
 * one write, which also lifts the fence; wait until no read routed before the switch remains; delete
 * the old rows. Every step records where it got to in the directory, so calling again after an
 * interruption at any point goes on from there; a check that finds a difference rolls the move back.
 */
export async function moveStep(
  context: MoveContext,
  { workshopId, to, now = new Date() }: { workshopId: string; to: string; now?: Date },
): Promise<MoveReport> {
  const row = await loadMove(context.directory, workshopId);
  if (row.move_state === null) return startMove(context, row, to, now);
  const target = row.move_state === "switched" ? row.shard : row.move_to;
  if (target !== to) {
    throw conflict(`A move of this workshop to ${target} is under way: finish it (or abort it before its switch) first.`);
  }
  switch (row.move_state) {
    case "fenced":
      return settleFence(context, row, now);
    case "copying":
      return copyPage(context, row);
    case "verifying":
      return verifyPage(context, row, now);
    case "switched":
      return cleanUp(context, row, now);
  }
}

/**
 * Abandons a move before its switch: the copy's rows are deleted from the target shard and the
 * fence is lifted; the workshop goes on where it was, as if nothing happened.
 */
export async function abortMove(context: MoveContext, workshopId: string): Promise<MoveReport> {
  const row = await loadMove(context.directory, workshopId);
  if (row.move_state === null) throw badRequest("This workshop is not being moved.");
  if (row.move_state === "switched") {
    throw conflict(`The move has switched to ${row.shard} already: move the workshop back instead.`);
  }
  const to = row.move_to as string;
  const target = shardOf(context, to);
  // The move is called off before the copy goes, and only if it has not switched since it was read:
  // a switch in between makes the copy the workshop's home, which must not be deleted. A copy left
  // by a failure after this is harmless: the next move to that shard deletes it first.
  const lifted = await context.directory
    .prepare(
      `UPDATE tenants SET move_to = NULL, move_from = NULL, move_state = NULL, move_since = NULL, move_progress = NULL
        WHERE id = ?1 AND move_to = ?2 AND move_state IN ('fenced', 'copying', 'verifying')`,
    )
    .bind(workshopId, to)
    .run();
  if (lifted.meta.changes !== 1)
    throw conflict("Another step of this move ran at the same time (it may have switched); look again.");
  await deleteWorkshopRows(target, workshopId, { keepRecord: to === PRIMARY });
  return { workshop: workshopId, from: row.shard, to, state: "done", next: "done" };
}

async function loadMove(directory: D1Database, workshopId: string): Promise<MoveRow> {
  const row = await directory
    .prepare("SELECT id, shard, move_to, move_from, move_state, move_since, move_progress FROM tenants WHERE id = ?1")
    .bind(workshopId)
    .first<MoveRow>();
  if (!row) throw notFound(`No workshop '${workshopId.slice(0, 80)}'.`);
  return row;
}

function shardOf(context: MoveContext, name: string): D1Database {
  const db = context.shards.get(name);
  if (!db)
    throw badRequest(
      `No database '${name.slice(0, 40)}' is bound to this deployment (known: ${[...context.shards.keys()].join(", ")}).`,
    );
  return db;
}

async function startMove(context: MoveContext, row: MoveRow, to: string, now: Date): Promise<MoveReport> {
  shardOf(context, to);
  if (row.shard === to) return { workshop: row.id, from: row.shard, to, state: "done", next: "done" };
  const fenced = await context.directory
    .prepare(
      `UPDATE tenants SET move_to = ?2, move_from = shard, move_state = 'fenced', move_since = ?3, move_progress = NULL
        WHERE id = ?1 AND move_state IS NULL`,
    )
    .bind(row.id, to, now.toISOString())
    .run();
  if (fenced.meta.changes !== 1) throw conflict("Another move of this workshop began at the same moment.");
  return { workshop: row.id, from: row.shard, to, state: "fenced", next: "wait", retry_after_seconds: FENCE_SETTLE_MS / 1000 };
}

function waited(row: MoveRow, now: Date, ms: number): number {
  return Math.max(0, Date.parse(row.move_since as string) + ms - now.getTime());
}

async function settleFence(context: MoveContext, row: MoveRow, now: Date): Promise<MoveReport> {
  const to = row.move_to as string;
  const left = waited(row, now, FENCE_SETTLE_MS);
  if (left > 0)
    return { workshop: row.id, from: row.shard, to, state: "fenced", next: "wait", retry_after_seconds: Math.ceil(left / 1000) };
  // A copy starts from nothing: whatever an interrupted earlier attempt left on the target goes first.
  const target = shardOf(context, to);
  await deleteWorkshopRows(target, row.id, { keepRecord: to === PRIMARY });
  // Isolates remember a workshop's keyword table as existing once seen (keyword-index.ts), so the
  // copy has one wherever the original has, chunks or none.
  const keyword = await keywordTableOf(row.id);
  const hasKeywordTable = await shardOf(context, row.shard)
    .prepare("SELECT 1 AS ok FROM sqlite_master WHERE type = 'table' AND name = ?1")
    .bind(keyword)
    .first();
  if (hasKeywordTable) await target.batch(createKeywordTableStatements(target, keyword));
  await saveProgress(context.directory, row.id, "fenced", "copying", { table: 0, after: null, rows: 0 });
  return { workshop: row.id, from: row.shard, to, state: "copying", next: "continue" };
}

async function saveProgress(directory: D1Database, workshopId: string, from: MoveState, state: MoveState, progress: Progress) {
  const saved = await directory
    .prepare("UPDATE tenants SET move_state = ?3, move_progress = ?4 WHERE id = ?1 AND move_state = ?2")
    .bind(workshopId, from, state, JSON.stringify(progress))
    .run();
  if (saved.meta.changes !== 1) throw conflict("Another step of this move ran at the same time; run the move again.");
}

/** One page of `table`'s rows of the workshop after `after`, in key order. */
function pageOf(db: D1Database, table: TableLayout, workshopId: string, after: unknown[] | null, limit = PAGE_ROWS) {
  const key = table.key.map((c) => `"${c}"`).join(", ");
  const cols = table.columns.map((c) => `"${c}"`).join(", ");
  const params = after ? after.map((_, i) => `?${i + 2}`).join(", ") : "";
  const sql = `SELECT ${cols} FROM "${table.name}" WHERE (${table.where})${after ? ` AND (${key}) > (${params})` : ""} ORDER BY ${key} LIMIT ${limit}`;
  return db
    .prepare(sql)
    .bind(workshopId, ...(after ?? []))
    .all<Record<string, unknown>>();
}

async function copyPage(context: MoveContext, row: MoveRow): Promise<MoveReport> {
  const to = row.move_to as string;
  const source = shardOf(context, row.shard);
  const target = shardOf(context, to);
  const layouts = await tableLayouts(source);
  let progress = JSON.parse(row.move_progress as string) as Progress;
  // Small tables are copied several to a step; a large one takes a step a page.
  let budget = PAGE_ROWS;
  while (budget > 0) {
    const table = layouts[progress.table];
    if (!table) {
      await saveProgress(context.directory, row.id, "copying", "verifying", { table: 0, after: null, rows: 0, checked: {} });
      return { workshop: row.id, from: row.shard, to, state: "verifying", next: "continue" };
    }
    const limit = Math.min(budget, table.pageRows);
    const { results } = await pageOf(source, table, row.id, progress.after, limit);
    await target.batch([
      ...copyStatements(target, table, row.id, results),
      ...(table.name === "chunks" && results.length > 0 ? await keywordRows(source, target, row.id, results) : []),
      // A statement that changes nothing keeps the batch valid when the page is empty.
      target.prepare("SELECT 1"),
    ]);
    const last = results[results.length - 1];
    progress =
      results.length < limit
        ? { table: progress.table + 1, after: null, rows: 0 }
        : { table: progress.table, after: table.key.map((c) => last?.[c] ?? null), rows: progress.rows + results.length };
    // A page of large values takes the rest of the step.
    budget = table.pageRows === PAGE_ROWS ? budget - Math.max(1, results.length) : 0;
  }
  await saveProgress(context.directory, row.id, "copying", "copying", progress);
  const table = layouts[progress.table];
  return {
    workshop: row.id,
    from: row.shard,
    to,
    state: "copying",
    next: "continue",
    ...(table ? { table: { name: table.name, rows_done: progress.rows } } : {}),
  };
}

/**
 * Inserts of copied rows; the workshop's own record takes the original's values if it is there
 * already. A row goes in only if it is the workshop's on the target too (its table's condition):
 * a message of a chat whose id (the client's choice) another workshop has there is left out, not
 * put in that workshop's chat, and the check then rolls the move back.
 */
function copyStatements(
  target: D1Database,
  table: TableLayout,
  workshopId: string,
  rows: Record<string, unknown>[],
): D1PreparedStatement[] {
  const names = table.columns.map((c) => `"${c}"`).join(", ");
  const values = table.columns.map((c, i) => `?${i + 2} AS "${c}"`).join(", ");
  // On the primary database the workshop's record is the directory's entry, there before the copy.
  const onConflict =
    table.name === "tenants"
      ? ` ON CONFLICT (id) DO UPDATE SET ${table.columns.map((c) => `"${c}" = excluded."${c}"`).join(", ")}`
      : "";
  const insert = `INSERT${onConflict ? "" : " OR IGNORE"} INTO "${table.name}" (${names})
    SELECT ${names} FROM (SELECT ${values}) WHERE (${table.where})${onConflict}`;
  return rows.map((r) => target.prepare(insert).bind(workshopId, ...table.columns.map((c) => r[c] ?? null)));
}

/**
 * The keyword index rows of copied chunks, for the target: each chunk's terms as the source indexed
 * them, put under the rowid the target gave the chunk (rowids are each shard's own).
 */
async function keywordRows(source: D1Database, target: D1Database, workshopId: string, chunks: Record<string, unknown>[]) {
  const table = await keywordTableOf(workshopId);
  const exists = await source.prepare("SELECT 1 AS ok FROM sqlite_master WHERE type = 'table' AND name = ?1").bind(table).first();
  if (!exists) return [];
  const ids = JSON.stringify(chunks.map((c) => c.id));
  const { results } = await source
    .prepare(
      `SELECT c.id, k.terms FROM "${table}" k JOIN chunks c ON c.rowid = k.rowid WHERE c.id IN (SELECT value FROM json_each(?1))`,
    )
    .bind(ids)
    .all<{ id: string; terms: string }>();
  return results.length > 0 ? [insertTermsStatement(target, table, JSON.stringify(results))] : [];
}

/** A page's rows as text both shards agree on: values in column order, bytes as hex. */
function canonical(rows: Record<string, unknown>[], columns: string[]): string {
  return JSON.stringify(
    rows.map((r) =>
      columns.map((c) => {
        const v = r[c];
        return v instanceof ArrayBuffer ? `x'${[...new Uint8Array(v)].map((b) => b.toString(16).padStart(2, "0")).join("")}'` : v;
      }),
    ),
  );
}

async function verifyPage(context: MoveContext, row: MoveRow, now: Date): Promise<MoveReport> {
  const to = row.move_to as string;
  const source = shardOf(context, row.shard);
  const target = shardOf(context, to);
  const layouts = await tableLayouts(source);
  let progress = JSON.parse(row.move_progress as string) as Progress;
  let budget = PAGE_ROWS;
  while (budget > 0) {
    const checked = progress.checked ?? {};
    const table = layouts[progress.table];
    if (!table) {
      await checkKeywordRows(context, row, source, target);
      return switchOver(context, row, now, checked);
    }
    const limit = Math.min(budget, table.pageRows);
    const [mine, theirs] = await Promise.all([
      pageOf(source, table, row.id, progress.after, limit),
      pageOf(target, table, row.id, progress.after, limit),
    ]);
    const [a, b] = await Promise.all([
      sha256Hex(canonical(mine.results, table.columns)),
      sha256Hex(canonical(theirs.results, table.columns)),
    ]);
    if (a !== b || mine.results.length !== theirs.results.length) {
      await abortMove(context, row.id);
      throw new AppError(
        "conflict",
        `The copy of ${table.name} differs from the original after ${progress.rows} rows, so the move was rolled back: the workshop stays on ${row.shard}, and nothing changed. Run the move again.`,
      );
    }
    const rows = progress.rows + mine.results.length;
    const last = mine.results[mine.results.length - 1];
    progress =
      mine.results.length < limit
        ? { table: progress.table + 1, after: null, rows: 0, checked: { ...checked, [table.name]: rows } }
        : { table: progress.table, after: table.key.map((c) => last?.[c] ?? null), rows, checked };
    budget = table.pageRows === PAGE_ROWS ? budget - Math.max(1, mine.results.length) : 0;
  }
  await saveProgress(context.directory, row.id, "verifying", "verifying", progress);
  const table = layouts[progress.table];
  return {
    workshop: row.id,
    from: row.shard,
    to,
    state: "verifying",
    next: "continue",
    ...(table ? { table: { name: table.name, rows_done: progress.rows } } : {}),
  };
}

/** The keyword index holds as many rows for the workshop's chunks on the target as on the source. */
async function checkKeywordRows(context: MoveContext, row: MoveRow, source: D1Database, target: D1Database) {
  const table = await keywordTableOf(row.id);
  const count = async (db: D1Database) => {
    const exists = await db.prepare("SELECT 1 AS ok FROM sqlite_master WHERE type = 'table' AND name = ?1").bind(table).first();
    if (!exists) return 0;
    const found = await db
      .prepare(`SELECT COUNT(*) AS n FROM "${table}" WHERE rowid IN (SELECT rowid FROM chunks WHERE tenant_id = ?1)`)
      .bind(row.id)
      .first<{ n: number }>();
    return found?.n ?? 0;
  };
  const [mine, theirs] = await Promise.all([count(source), count(target)]);
  if (mine !== theirs) {
    await abortMove(context, row.id);
    throw new AppError(
      "conflict",
      `The keyword index of the copy holds ${theirs} rows, the original ${mine}, so the move was rolled back: the workshop stays on ${row.shard}. Run the move again.`,
    );
  }
}

/** Points the directory at the copy and lifts the fence, in one write. */
async function switchOver(context: MoveContext, row: MoveRow, now: Date, checked: Record<string, number>): Promise<MoveReport> {
  const to = row.move_to as string;
  const switched = await context.directory
    .prepare(
      `UPDATE tenants SET shard = move_to, move_to = NULL, move_state = 'switched', move_since = ?2, move_progress = NULL
        WHERE id = ?1 AND move_state = 'verifying'`,
    )
    .bind(row.id, now.toISOString())
    .run();
  if (switched.meta.changes !== 1) throw conflict("Another step of this move ran at the same time; run the move again.");
  return {
    workshop: row.id,
    from: row.shard,
    to,
    state: "switched",
    next: "wait",
    retry_after_seconds: CLEANUP_AFTER_MS / 1000,
    checked,
  };
}

async function cleanUp(context: MoveContext, row: MoveRow, now: Date): Promise<MoveReport> {
  const from = row.move_from as string;
  const left = waited(row, now, CLEANUP_AFTER_MS);
  if (left > 0) {
    return {
      workshop: row.id,
      from,
      to: row.shard,
      state: "switched",
      next: "wait",
      retry_after_seconds: Math.ceil(left / 1000),
    };
  }
  await deleteWorkshopRows(shardOf(context, from), row.id, { keepRecord: from === PRIMARY });
  await context.directory
    .prepare(
      "UPDATE tenants SET move_from = NULL, move_state = NULL, move_since = NULL, move_progress = NULL WHERE id = ?1 AND move_state = 'switched'",
    )
    .bind(row.id)
    .run();
  return { workshop: row.id, from, to: row.shard, state: "done", next: "done" };
}
