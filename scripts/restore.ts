// npm run restore -- --from DIR [--remote] [--reindex-only] [--config PATH]
// Brings a backup (npm run backup) into empty databases, then rebuilds every workshop's keyword
// index and vectors from its chunks. For each database of the backup: creates it where wrangler.toml
// names one the account lacks (--remote), applies every migration, refuses one that holds rows,
// writes the rows and checks every table's count. Then, through the Worker's operator API, it
// rebuilds the indexes of every workshop: at WEFT_URL (else PUBLIC_URL of [env.production.vars])
// with WEFT_OPERATOR_KEY, or locally at `npm run dev` (http://localhost:$PORT, the demo operator
// key). When no Worker answers there yet (deploy it first, or start npm run dev), it says so, and
// `--reindex-only` does that part later. docs/deployment.md, "Backups", gives the whole order.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { type DatabaseDump, restoreDatabase } from "./backup/dump.ts";
import { targetOf, wranglerDatabase } from "./backup/wrangler-database.ts";
import type { BackupManifest } from "./backup.ts";
import { createDatabase, readAccount, requireLogin, wranglerOutput } from "./deploy/account.ts";
import { readProductionConfig, setDatabaseId } from "./deploy/production-config.ts";
import { d1Bindings, requireNode22, WRANGLER_TOML } from "./lib.ts";

requireNode22();
const { values } = parseArgs({
  options: {
    from: { type: "string" },
    remote: { type: "boolean", default: false },
    "reindex-only": { type: "boolean", default: false },
    config: { type: "string", default: WRANGLER_TOML },
  },
});
const config = resolve(values.config);
const target = targetOf({ remote: values.remote, config });

/** Creates the production databases wrangler.toml names that the account does not hold, writing their ids. */
function createMissingDatabases(): void {
  const account = readAccount(config);
  for (const { binding, database_name, database_id } of readProductionConfig(config).d1) {
    if (account.d1.some((d) => d.uuid === database_id)) continue;
    const found = account.d1.find((d) => d.name === database_name);
    const id = found?.uuid ?? createDatabase(config, database_name);
    setDatabaseId(config, binding, id);
    console.log(
      `  ${found ? "found" : "created"} D1 database ${database_name} (${id}) for ${binding}, written into wrangler.toml`,
    );
  }
}

async function restoreRows(from: string): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(from, "manifest.json"), "utf8")) as BackupManifest;
  const bindings = d1Bindings({ production: values.remote, config });
  const absent = Object.keys(manifest.databases).filter((b) => !bindings.includes(b));
  if (absent.length > 0)
    throw new Error(`The backup holds ${absent.join(", ")}, which wrangler.toml does not bind: add them first.`);
  console.log(`Restoring the backup of ${manifest.from} made ${manifest.made_at} (Weft ${manifest.weft_version})...`);
  if (values.remote) createMissingDatabases();
  for (const [binding, databaseManifest] of Object.entries(manifest.databases)) {
    wranglerOutput(["d1", "migrations", "apply", binding, ...target]);
    const statements = readFileSync(join(from, `${binding}.jsonl`), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as string);
    const dump: DatabaseDump = { manifest: databaseManifest, statements };
    await restoreDatabase(wranglerDatabase(binding, target), dump);
    const rows = Object.values(databaseManifest.tables).reduce((a, b) => a + b, 0);
    console.log(`  ${binding}: ${rows} rows restored, every table's count checked`);
  }
}

/** Rebuilds every workshop's keyword index and vectors through the Worker; false when no Worker answers. */
async function reindex(): Promise<boolean> {
  const base = values.remote
    ? (process.env.WEFT_URL || readProductionConfig(config).vars.PUBLIC_URL || "").replace(/\/$/, "")
    : `http://localhost:${process.env.PORT ?? "8787"}`;
  const key = values.remote ? process.env.WEFT_OPERATOR_KEY : (process.env.WEFT_OPERATOR_KEY ?? "dev-operator-key");
  if (!base || !key)
    throw new Error("Set WEFT_OPERATOR_KEY (and WEFT_URL, or PUBLIC_URL in [env.production.vars]) to rebuild the indexes.");
  const [workshops = []] = await wranglerDatabase("DB", target).query(["SELECT id FROM tenants ORDER BY id"]);
  try {
    await fetch(`${base}/healthz`);
  } catch {
    return false;
  }
  for (const { id } of workshops as { id: string }[]) {
    let after: number | null = null;
    let chunks = 0;
    do {
      const res = await fetch(`${base}/api/admin/workshops/${encodeURIComponent(id)}/reindex`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ after }),
      });
      const step = (await res.json()) as { chunks: number; after: number | null; error?: { message: string } };
      if (!res.ok)
        throw new Error(`Rebuilding ${id}'s indexes stopped (${res.status}): ${step.error?.message ?? "no reason given"}`);
      chunks += step.chunks;
      after = step.after;
    } while (after !== null);
    console.log(`  ${id}: keyword index and vectors rebuilt from ${chunks} chunks`);
  }
  return true;
}

try {
  if (!values.from && !values["reindex-only"]) {
    console.error("Usage: npm run restore -- --from DIR [--remote]   (or --reindex-only [--remote])");
    process.exit(2);
  }
  if (values.remote) requireLogin();
  if (!values["reindex-only"]) await restoreRows(resolve(values.from as string));
  console.log("Rebuilding every workshop's keyword index and vectors...");
  if (!(await reindex())) {
    console.log(
      `No Worker answers yet, so the indexes are not rebuilt: ${values.remote ? "npm run deploy" : "start npm run dev (same WEFT_STATE_DIR)"}, then npm run restore -- --reindex-only${values.remote ? " --remote" : ""}.`,
    );
    process.exit(values["reindex-only"] ? 1 : 0);
  }
  console.log("Restored: every search, record and chat is as it was when the backup was made.");
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
