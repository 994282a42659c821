import { env } from "cloudflare:test";

/**
 * env.DB, counting round trips (each batch, and each statement run on its own) and keeping the SQL
 * of every statement sent, in the order sent.
 */
export function countingDb(): { db: D1Database; trips: () => number; sent: string[] } {
  let trips = 0;
  const sent: string[] = [];
  const sqlOf = new WeakMap<object, string>();
  const statement = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const wrapped = new Proxy(stmt, {
      get(target, prop) {
        const value = Reflect.get(target, prop) as unknown;
        if (typeof value !== "function") return value;
        if (prop === "bind") return (...args: unknown[]) => statement(value.apply(target, args) as D1PreparedStatement, sql);
        if (["all", "first", "run", "raw"].includes(prop as string))
          return (...args: unknown[]) => {
            trips++;
            sent.push(sql);
            return value.apply(target, args);
          };
        return value.bind(target);
      },
    });
    sqlOf.set(wrapped, sql);
    return wrapped;
  };
  const db = new Proxy(env.DB, {
    get(target, prop) {
      const value = Reflect.get(target, prop) as unknown;
      if (typeof value !== "function") return value;
      if (prop === "prepare") return (sql: string) => statement(target.prepare(sql), sql);
      if (prop === "batch")
        return (statements: D1PreparedStatement[]) => {
          trips++;
          for (const s of statements) sent.push(sqlOf.get(s) ?? "");
          return target.batch(statements);
        };
      return value.bind(target);
    },
  });
  return { db, trips: () => trips, sent };
}
