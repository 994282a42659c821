import { dbOf } from "../fixtures.ts";

/**
 * The demo workshop's database, counting round trips (each batch, and each statement run on its own) and keeping the SQL
 * of every statement sent, in the order sent, and the values bound to each.
 */
export function countingDb(): { db: D1Database; trips: () => number; sent: string[]; bound: unknown[][] } {
  let trips = 0;
  const sent: string[] = [];
  const bound: unknown[][] = [];
  const sqlOf = new WeakMap<object, { sql: string; values: unknown[] }>();
  const statement = (stmt: D1PreparedStatement, sql: string, values: unknown[] = []): D1PreparedStatement => {
    const wrapped = new Proxy(stmt, {
      get(target, prop) {
        const value = Reflect.get(target, prop) as unknown;
        if (typeof value !== "function") return value;
        if (prop === "bind")
          return (...args: unknown[]) => statement(value.apply(target, args) as D1PreparedStatement, sql, args);
        if (["all", "first", "run", "raw"].includes(prop as string))
          return (...args: unknown[]) => {
            trips++;
            sent.push(sql);
            bound.push(values);
            return value.apply(target, args);
          };
        return value.bind(target);
      },
    });
    sqlOf.set(wrapped, { sql, values });
    return wrapped;
  };
  const db = new Proxy(dbOf("t-jinxiu"), {
    get(target, prop) {
      const value = Reflect.get(target, prop) as unknown;
      if (typeof value !== "function") return value;
      if (prop === "prepare") return (sql: string) => statement(target.prepare(sql), sql);
      if (prop === "batch")
        return (statements: D1PreparedStatement[]) => {
          trips++;
          for (const s of statements) {
            sent.push(sqlOf.get(s)?.sql ?? "");
            bound.push(sqlOf.get(s)?.values ?? []);
          }
          return target.batch(statements);
        };
      return value.bind(target);
    },
  });
  return { db, trips: () => trips, sent, bound };
}
