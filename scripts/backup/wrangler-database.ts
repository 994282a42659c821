// A D1 database as `npm run backup` and `npm run restore` reach it: through `wrangler d1 execute`,
// local (`--local`, under WEFT_STATE_DIR when set) or the production one (`--remote`).
import { wranglerOutput } from "../deploy/account.ts";
import { executeSql } from "../lib.ts";
import type { SqlDatabase } from "./dump.ts";

/** Where a script's wrangler runs reach: the local state or production, from `config`. */
export function targetOf({ remote, config }: { remote: boolean; config: string }): string[] {
  const persistTo = process.env.WEFT_STATE_DIR;
  const where = remote ? ["--remote", "--env", "production"] : ["--local", ...(persistTo ? ["--persist-to", persistTo] : [])];
  return [...where, "-c", config];
}

/** The database bound as `binding`; several queries go in one wrangler run (one result each). */
export function wranglerDatabase(binding: string, target: string[]): SqlDatabase {
  return {
    async query(sqls) {
      const out = wranglerOutput(["d1", "execute", binding, ...target, "--json", "--command", sqls.join(";\n")]);
      const results = JSON.parse(out.slice(out.search(/^\[/m))) as { results?: Record<string, unknown>[] }[];
      if (results.length !== sqls.length)
        throw new Error(`wrangler answered ${results.length} results to ${sqls.length} queries on ${binding}.`);
      return results.map((r) => r.results ?? []);
    },
    async run(statements) {
      executeSql(`restore-${binding}`, statements, target, binding);
    },
  };
}
