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
  const refuseWrites = (sqls: readonly string[]) => {
    if (sqls.some(changesData)) throw movingError(retryAfterSeconds);
  };
  const sqlOf = new WeakMap<D1PreparedStatement, string>();
  const fenced = new Proxy(db, {
    get(target, property) {
      if (property === "prepare") {
        return (sql: string) => {
          const statement = target.prepare(sql);
          sqlOf.set(statement, sql);
          return guardedStatement(statement, sql, refuseWrites, sqlOf);
        };
      }
      if (property === "batch") {
        return (statements: D1PreparedStatement[]) => {
          refuseWrites(statements.map((s) => sqlOf.get(s) ?? ""));
          return target.batch(statements);
        };
      }
      if (property === "exec") {
        return (sql: string) => {
          refuseWrites([sql]);
          return target.exec(sql);
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  fences.set(fenced, movingError(retryAfterSeconds));
  return fenced;
}

/** A statement whose runs are refused when it writes, and whose bound copies stay guarded. */
function guardedStatement(
  statement: D1PreparedStatement,
  sql: string,
  refuseWrites: (sqls: readonly string[]) => void,
  sqlOf: WeakMap<D1PreparedStatement, string>,
): D1PreparedStatement {
  const guarded = new Proxy(statement, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== "function") return value;
      if (property === "bind") {
        return (...values: unknown[]) => guardedStatement(target.bind(...values), sql, refuseWrites, sqlOf);
      }
      if (property === "run" || property === "all" || property === "first" || property === "raw") {
        return (...args: unknown[]) => {
          refuseWrites([sql]);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
  sqlOf.set(guarded, sql);
  return guarded;
}
