import { AppError } from "../errors.ts";

// A statement reads when it is a SELECT (or a WITH … SELECT) naming no statement that changes data.
const READS = /^\s*(SELECT|WITH)\b/i;
const CHANGES = /\b(INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER)\b/i;

/** Whether a statement may change data (anything but a plain read counts, to be safe). */
export function changesData(sql: string): boolean {
  return !READS.test(sql) || CHANGES.test(sql);
}

/** What a write to a workshop being moved is told: nothing was written; try again shortly. */
export function movingError(retryAfterSeconds: number): AppError {
  return new AppError(
    "workshop_moving",
    `This workshop's data is being moved to another database; nothing was written. Try again in ${retryAfterSeconds} s.`,
    { details: { retry_after_seconds: retryAfterSeconds } },
  );
}

// The fenced databases, with the error their writes get.
const fences = new WeakMap<D1Database, AppError>();

/**
 * The error every write to `db` gets, if it is a workshop's database fenced for a move; `null` if
 * it takes writes. For work that must not start unless its write can follow (a call to another
 * server, which cannot be undone).
 */
export function fenceOf(db: D1Database): AppError | null {
  return fences.get(db) ?? null;
}

/**
 * The workshop's database while it is being moved: reads as usual, and every statement that would
 * change data refused (503 `workshop_moving` with Retry-After) before it reaches D1, alone or in a
 * batch, so nothing written during the copy can be lost when the directory switches to the copy.
 */
export function fencedDatabase(db: D1Database, retryAfterSeconds: number): D1Database {
  const fenced = guardedDatabase(db, (sqls) => {
    if (sqls.some(changesData)) throw movingError(retryAfterSeconds);
  });
  fences.set(fenced, movingError(retryAfterSeconds));
  return fenced;
}

/**
 * The database with `guard` asked before every statement runs (alone or in a batch), given the SQL
 * of what is about to run; a guard that throws stops it before it reaches D1. For long work (an
 * ingestion job's step) whose workshop may be fenced for a move while it runs: its guard asks the
 * directory again before each write.
 */
export function guardedDatabase(db: D1Database, guard: (sqls: readonly string[]) => void | Promise<void>): D1Database {
  const sqlOf = new WeakMap<D1PreparedStatement, string>();
  return new Proxy(db, {
    get(target, property) {
      if (property === "prepare") {
        return (sql: string) => guardedStatement(target.prepare(sql), sql, guard, sqlOf);
      }
      if (property === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          await guard(statements.map((s) => sqlOf.get(s) ?? ""));
          return target.batch(statements);
        };
      }
      if (property === "exec") {
        return async (sql: string) => {
          await guard([sql]);
          return target.exec(sql);
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A statement whose runs pass `guard` first, and whose bound copies stay guarded. */
function guardedStatement(
  statement: D1PreparedStatement,
  sql: string,
  guard: (sqls: readonly string[]) => void | Promise<void>,
  sqlOf: WeakMap<D1PreparedStatement, string>,
): D1PreparedStatement {
  const guarded = new Proxy(statement, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== "function") return value;
      if (property === "bind") {
        return (...values: unknown[]) => guardedStatement(target.bind(...values), sql, guard, sqlOf);
      }
      if (property === "run" || property === "all" || property === "first" || property === "raw") {
        return async (...args: unknown[]) => {
          await guard([sql]);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
  sqlOf.set(guarded, sql);
  return guarded;
}
