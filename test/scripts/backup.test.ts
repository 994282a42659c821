import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { fullAccount, IDS, madeForEachTest, runScript } from "./fake-account.ts";

const FAKE = join(import.meta.dirname, "fake-wrangler.mjs");
const made = madeForEachTest();

/** A production account whose databases are SQLite files in the folder, migrated, holding a workshop. */
function deployment() {
  const state = fullAccount();
  const f = made.folder(state);
  const account = f.read();
  account.sqliteDir = f.dir;
  f.write(account);
  for (const binding of ["DB", "SHARD_1"]) {
    const run = spawnSync(
      process.execPath,
      [FAKE, "d1", "migrations", "apply", binding, "--remote", "--env", "production", "-c", f.config],
      {
        env: { ...process.env, FAKE_WRANGLER_STATE: f.state },
        encoding: "utf8",
      },
    );
    expect(run.status, run.stderr).toBe(0);
  }
  const directory = new DatabaseSync(join(f.dir, `${IDS.DB}.sqlite`));
  directory.exec("INSERT INTO tenants (id, name, shard) VALUES ('t-a', '锦绣制衣', 'SHARD_1')");
  directory.exec("INSERT INTO operator_keys (id, name, prefix, key_hash) VALUES ('op1', 'operator', 'wop_abcd', 'hash')");
  const shard = new DatabaseSync(join(f.dir, `${IDS.SHARD_1}.sqlite`));
  shard.exec("INSERT INTO tenants (id, name) VALUES ('t-a', '锦绣制衣')");
  shard.exec("INSERT INTO knowledge_bases (id, tenant_id, name) VALUES ('kb1', 't-a', '工艺')");
  shard.exec(
    "INSERT INTO documents (id, tenant_id, kb_id, title, filename, content_type, status) VALUES ('d1', 't-a', 'kb1', '计件', 'a.md', 'text/markdown', 'ready')",
  );
  shard
    .prepare(
      "INSERT INTO chunks (rowid, id, tenant_id, kb_id, document_id, position, content) VALUES (7, 'c7', 't-a', 'kb1', 'd1', 0, ?)",
    )
    .run(`计件工资'按件算'${"长".repeat(70_000)}`);
  shard.exec("CREATE VIRTUAL TABLE fts_0123456789abcdef USING fts5(terms)");
  shard.exec("INSERT INTO fts_0123456789abcdef (rowid, terms) VALUES (7, '计件 工资')");
  return { f, shard };
}

const rowsOf = (db: DatabaseSync, table: string) => db.prepare(`SELECT rowid AS r, * FROM ${table} ORDER BY rowid`).all();

describe("npm run backup -- --remote and npm run restore -- --remote", () => {
  it("write every database's rows without the keyword index, and bring them into new databases, created and migrated", async () => {
    const { f, shard } = deployment();
    const out = join(f.dir, "backup");
    const backup = await runScript("backup.ts", ["--remote", "--config", f.config, "--out", out], f);
    expect(backup.status, backup.output).toBe(0);
    expect(backup.stdout).toContain("SHARD_1: 4 rows in");
    const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
    expect(manifest.from).toBe("production");
    expect(manifest.databases.SHARD_1.tables.chunks).toBe(1);
    expect(Object.keys(manifest.databases.SHARD_1.tables).some((t) => t.startsWith("fts_"))).toBe(false);
    expect(readFileSync(join(out, "SHARD_1.jsonl"), "utf8")).not.toContain("fts_");

    // Into new databases: wrangler.toml names them, with placeholder ids; the restore creates them.
    const whole = f.toml();
    const at = whole.indexOf("\n[env.production]\n");
    const production = whole
      .slice(at)
      .replace('database_name = "weft"\n', 'database_name = "weft-restored"\n')
      .replace('database_name = "weft-shard-1"\n', 'database_name = "weft-shard-1-restored"\n')
      .replace(`database_id = "${IDS.DB}"`, 'database_id = "00000000-0000-0000-0000-000000000000"')
      .replace(`database_id = "${IDS.SHARD_1}"`, 'database_id = "00000000-0000-0000-0000-000000000001"');
    const toml = whole.slice(0, at) + production;
    f.writeToml(toml);
    const env = { WEFT_URL: "http://127.0.0.1:9", WEFT_OPERATOR_KEY: "wop_operator" };
    const restore = await runScript("restore.ts", ["--remote", "--config", f.config, "--from", out], f, env);
    expect(restore.status, restore.output).toBe(0);
    const restored = f.read().d1.find((d) => d.name === "weft-shard-1-restored");
    expect(restore.stdout).toContain(`created D1 database weft-shard-1-restored (${restored?.uuid}) for SHARD_1`);
    expect(f.toml()).toContain(`database_id = "${restored?.uuid}"`);
    expect(restore.stdout).toContain("SHARD_1: 4 rows restored, every table's count checked");
    expect(restore.stdout).toContain("No Worker answers yet, so the indexes are not rebuilt: npm run deploy");
    const copy = new DatabaseSync(join(f.dir, `${restored?.uuid}.sqlite`));
    for (const table of ["tenants", "knowledge_bases", "documents", "chunks"])
      expect(rowsOf(copy, table)).toEqual(rowsOf(shard, table));
    expect(copy.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'fts_%'").all()).toEqual([]);

    // A database that holds rows takes no backup.
    const again = await runScript("restore.ts", ["--remote", "--config", f.config, "--from", out], f, env);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("it is not empty");
  });
});
