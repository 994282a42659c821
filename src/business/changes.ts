import {
  type ActionOwner,
  type Approval,
  AUDIT_APPROVAL_COLUMNS,
  auditApprovalValues,
  type Execution,
  placeholders,
} from "../actions/types.ts";
import { AppError, forbidden } from "../errors.ts";
import { can, LEAST_ROLE } from "../permissions.ts";
import type { PreviewField } from "../shapes.ts";
import type { Role, UserContext } from "../user-context.ts";

// What the writes of a workshop's own data (employees, styles, processes and prices, orders,
// adjustments, the workshop's settings) share: a change is prepared against the version of the
// row it read, and its executor writes in one D1 batch that a guard fails (undoing all of it)
// unless the row is still at that version, with the audit entry (before and after) in the same
// batch. The audit entry is how a confirm finds out whether its action wrote: its id is the action's.

/** The role every change of the workshop's own data needs of its person, checked again when they confirm. */
export const MANAGER: Role = LEAST_ROLE["business:manage"];

/** Refuses a caller who may not change the workshop's own data (staff read it). */
export function requireManager(user: UserContext): void {
  if (!can(user, "business:manage")) {
    throw forbidden(
      "Only a boss changes the workshop's employees, styles, processes, prices, orders, 补贴 and 扣款 and settings.",
    );
  }
}

export type Scalar = string | number | null;
export type Row = Record<string, Scalar>;

/** The tables a change updates in place, and the columns it may set: nothing else is written from a stored write. */
const UPDATABLE = {
  employees: ["name", "employee_no", "phone", "status", "left_on"],
  styles: ["code", "name"],
  processes: ["name", "active"],
  orders: ["status", "quantity", "due_date", "note", "cancel_reason"],
  tenants: ["name", "time_zone"],
} as const satisfies Record<string, readonly string[]>;

export type UpdatableTable = keyof typeof UPDATABLE;

/** A row's change as it was prepared: the row, the version read, its columns then and as they become. */
export interface RowUpdate {
  table: UpdatableTable;
  id: string;
  version: number;
  /** Every updatable column of the row as it was read (so any change made meanwhile can be named). */
  before: Row;
  /** The columns that change, with their new values. */
  after: Row;
}

/** How a row's columns are called and shown to people, for "what changed" and the preview. */
export interface Words {
  /** The row, as a person names it: 王强（工号 008）. */
  what: string;
  labels: Readonly<Record<string, string>>;
  show?: (column: string, value: Scalar) => string;
}

// A workshop's own record is its id; every other row is the workshop's by its tenant_id.
const scope = (table: UpdatableTable) => (table === "tenants" ? "id = ?1 AND id = ?2" : "id = ?1 AND tenant_id = ?2");

/**
 * A statement that fails the batch it is in, and so undoes the batch, unless `condition` holds:
 * `json()` of a word that is not JSON is an error. How a batch is made conditional as a whole
 * (SQLite has no assertions outside triggers).
 */
export function guard(db: D1Database, condition: string, ...params: unknown[]): D1PreparedStatement {
  return db.prepare(`SELECT json(CASE WHEN ${condition} THEN 'true' ELSE 'changed meanwhile' END)`).bind(...params);
}

/**
 * A guard that every row an import read (`rows`: JSON of `{ <idField>, version }`) is still at the
 * version it was read at, so a confirmed import writes nothing over a change made meanwhile.
 */
export function rowsStillAsRead(
  db: D1Database,
  tenantId: string,
  { table, idField, rows }: { table: "employees" | "processes"; idField: "id" | "process_id"; rows: string },
): D1PreparedStatement {
  return guard(
    db,
    `(SELECT COUNT(*) FROM ${table} t JOIN json_each(?2) j ON t.id = json_extract(j.value, '$.${idField}')
       WHERE t.tenant_id = ?1 AND t.version = json_extract(j.value, '$.version')) = json_array_length(?2)`,
    tenantId,
    rows,
  );
}

/** The statements that apply a row's change: a guard on its version, then the update, moving the version on. */
export function updateStatements(db: D1Database, tenantId: string, update: RowUpdate): D1PreparedStatement[] {
  const allowed: readonly string[] = UPDATABLE[update.table];
  const columns = Object.keys(update.after);
  const refused = columns.find((column) => !allowed.includes(column));
  if (refused !== undefined || columns.length === 0)
    throw new Error(`a change may not set ${update.table}.${refused ?? "(nothing)"}`);
  const sets = columns.map((column, i) => `${column} = ?${i + 4}`).join(", ");
  const where = `${scope(update.table)} AND version = ?3`;
  return [
    guard(db, `EXISTS (SELECT 1 FROM ${update.table} WHERE ${where})`, update.id, tenantId, update.version),
    db
      .prepare(`UPDATE ${update.table} SET ${sets}, version = version + 1 WHERE ${where}`)
      .bind(update.id, tenantId, update.version, ...columns.map((column) => update.after[column] ?? null)),
  ];
}

/** A value as a person reads it: an empty one as 空. */
function shown(words: Words, column: string, value: Scalar): string {
  if (words.show) return words.show(column, value);
  return value === null || value === "" ? "空" : String(value);
}

/**
 * Why a prepared change of a row may no longer be written: the row is gone, or it was changed
 * meanwhile, naming each column that changed with its value then and now; `null` while it is
 * still at the version the change was prepared against.
 */
export async function staleRow(db: D1Database, tenantId: string, update: RowUpdate, words: Words): Promise<string | null> {
  const columns = Object.keys(update.before);
  const row = await db
    .prepare(`SELECT ${[...columns, "version"].join(", ")} FROM ${update.table} WHERE ${scope(update.table)}`)
    .bind(update.id, tenantId)
    .first<Row>();
  if (!row) return `${words.what}已经不存在了。这次没有写入。`;
  if (row.version === update.version) return null;
  const changed = columns
    .filter((column) => row[column] !== update.before[column])
    .map(
      (column) =>
        `${words.labels[column] ?? column}：${shown(words, column, update.before[column] ?? null)} → ${shown(words, column, row[column] ?? null)}`,
    );
  return `准备之后，${words.what}被改过了${changed.length > 0 ? `（${changed.join("；")}）` : ""}。这次没有写入，请按现在的资料重新准备。`;
}

/**
 * The preview's lines for a row's change, each changed column's old and new value side by side
 * (`电话：13800000001 → 13900000002`).
 */
export function changeLines(update: RowUpdate, words: Words): PreviewField[] {
  return Object.keys(update.after).map((column) => ({
    label: words.labels[column] ?? column,
    value: `${shown(words, column, update.before[column] ?? null)} → ${shown(words, column, update.after[column] ?? null)}`,
  }));
}

/** A row's change as its audit entry keeps it: the whole row before, and after. */
export function rowChange(update: RowUpdate): { before: Row; after: Row } {
  return { before: update.before, after: { ...update.before, ...update.after } };
}

/**
 * Refuses a change prepared through REST with `If-Match` when the row is no longer at a version
 * the client read: 409 with the row as it is now, so the form can show it and be sent again.
 */
export function checkIfMatch(ifVersion: number[] | undefined, current: { version: number }, what: string): void {
  if (ifVersion === undefined || ifVersion.includes(current.version)) return;
  throw new AppError(
    "conflict",
    `${what} was changed since you read it (now version ${current.version}). Read it again and send the change with its new version.`,
    { details: { current } },
  );
}

/** What an audit entry of a change records beside its values. */
export interface AuditOf {
  owner: ActionOwner;
  actionId: string;
  kind: string;
  entityId: string;
  summary: string;
  approval: Approval;
}

// The audit columns an approval fills come after the entry's own five parameters.
const APPROVAL_FROM_6 = placeholders(6, AUDIT_APPROVAL_COLUMNS.split(",").length);
/** The first parameter free for an audit statement's own `values` SQL. */
export const AUDIT_FREE_PARAM = 6 + AUDIT_APPROVAL_COLUMNS.split(",").length;

/**
 * The audit entry of a change, in the batch of the change itself: `values` as JSON with `before`
 * and `after`, either given (`json`) or read from the written row (`sql`, a JSON expression over
 * `from`, whose own parameters start at `AUDIT_FREE_PARAM`).
 */
export function auditStatement(
  db: D1Database,
  entry: AuditOf,
  values: { json: { before: unknown; after: unknown } } | { sql: string; from: string; params: unknown[] },
): D1PreparedStatement {
  const common = [entry.actionId, entry.owner.tenantId, entry.owner.userId, entry.kind, entry.entityId];
  const approval = auditApprovalValues(entry.approval, entry.summary);
  const [valuesSql, from, params] =
    "json" in values ? [`?${AUDIT_FREE_PARAM}`, "", [JSON.stringify(values.json)]] : [values.sql, values.from, values.params];
  return db
    .prepare(
      `INSERT INTO business_audit (id, tenant_id, user_id, action_id, kind, entity_id, values_json, ${AUDIT_APPROVAL_COLUMNS})
       SELECT 'audit-' || ?1, ?2, ?3, ?1, ?4, ?5, ${valuesSql}, ${APPROVAL_FROM_6} ${from}`,
    )
    .bind(...common, ...approval, ...params);
}

/**
 * What an action wrote, read from its audit entry (its values `after`, with the entity's id), or
 * `null` if it wrote nothing: the audit entry is written in the batch of the change, or not at all.
 */
export async function writtenByAudit(
  db: D1Database,
  actionId: string,
  tenantId: string,
): Promise<Record<string, unknown> | null> {
  const row = await db
    .prepare("SELECT entity_id, values_json FROM business_audit WHERE action_id = ?1 AND tenant_id = ?2")
    .bind(actionId, tenantId)
    .first<{ entity_id: string; values_json: string }>();
  if (!row) return null;
  const values = JSON.parse(row.values_json) as { after?: Record<string, unknown> };
  // Lists (an import's rows) are the audit's to keep; what was written is said without them.
  const after = Object.entries(values.after ?? {}).filter(([, value]) => !Array.isArray(value));
  return { id: row.entity_id, ...Object.fromEntries(after) };
}

/**
 * Runs a change's batch once: what its action wrote already (a retry after a crash), or why it
 * may no longer be written (`stale`, asked before and, when the batch fails, after it: a guard
 * or a unique key refused it because of a change meanwhile), or the batch's result. A failure
 * that no change explains is thrown: nothing was written, and the action stays pending.
 */
export async function executeOnce({
  db,
  actionId,
  tenantId,
  stale,
  statements,
}: {
  db: D1Database;
  actionId: string;
  tenantId: string;
  stale: () => Promise<string | null>;
  statements: () => D1PreparedStatement[];
}): Promise<Execution> {
  const done = await writtenByAudit(db, actionId, tenantId);
  if (done) return { ok: true, result: done };
  const before = await stale();
  if (before) return { ok: false, message: before };
  try {
    await db.batch(statements());
  } catch (error) {
    const why = await stale();
    if (why) return { ok: false, message: why };
    throw error;
  }
  const written = await writtenByAudit(db, actionId, tenantId);
  if (!written) throw new Error(`action ${actionId}: its batch ran without writing its audit entry`);
  return { ok: true, result: written };
}
