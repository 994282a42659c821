// npm run backup [-- --remote] [--out DIR] [--config PATH]
// Writes every database (the directory `DB` and every shard) into a folder: each database's rows as
// SQL statements (DIR/<binding>.jsonl, one statement a line) and a manifest (DIR/manifest.json:
// the migrations each had applied, each table's row count). The keyword indexes (FTS5 tables, which
// `wrangler d1 export` refuses) and the vectors are not in it: `npm run restore` rebuilds them from
// the chunks. Locally by default (WEFT_STATE_DIR if set); with --remote from production. Reads
// only. docs/deployment.md says when to use this and when D1 Time Travel.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import pkg from "../package.json" with { type: "json" };
import { type DumpManifest, dumpDatabase } from "./backup/dump.ts";
import { targetOf, wranglerDatabase } from "./backup/wrangler-database.ts";
import { requireLogin } from "./deploy/account.ts";
import { d1Bindings, ROOT, requireNode22, WRANGLER_TOML } from "./lib.ts";

/** What a backup folder's manifest.json holds. */
export interface BackupManifest {
  made_at: string;
  from: "local" | "production";
  weft_version: string;
  databases: Record<string, DumpManifest>;
}

requireNode22();
const { values } = parseArgs({
  options: {
    remote: { type: "boolean", default: false },
    out: { type: "string" },
    config: { type: "string", default: WRANGLER_TOML },
  },
});
const config = resolve(values.config);
const from = values.remote ? "production" : "local";
const madeAt = new Date().toISOString();
const out = resolve(values.out ?? join(ROOT, "backups", `weft-${from}-${madeAt.replaceAll(":", "-").slice(0, 19)}`));

try {
  if (values.remote) requireLogin();
  const target = targetOf({ remote: values.remote, config });
  mkdirSync(out, { recursive: true });
  const manifest: BackupManifest = { made_at: madeAt, from, weft_version: pkg.version, databases: {} };
  for (const binding of d1Bindings({ production: values.remote, config })) {
    const dump = await dumpDatabase(wranglerDatabase(binding, target));
    writeFileSync(join(out, `${binding}.jsonl`), dump.statements.map((s) => `${JSON.stringify(s)}\n`).join(""));
    manifest.databases[binding] = dump.manifest;
    const rows = Object.values(dump.manifest.tables).reduce((a, b) => a + b, 0);
    console.log(
      `${binding}: ${rows} rows in ${Object.keys(dump.manifest.tables).length} tables, ${dump.manifest.migrations.length} migrations applied`,
    );
  }
  writeFileSync(join(out, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(
    `Backup of ${from} written to ${out}. It holds people's password hashes and every workshop's data: keep it as safe as the databases.`,
  );
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
