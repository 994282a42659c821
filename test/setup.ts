import { env, reset } from "cloudflare:test";
import { saveTree } from "../src/consult/tree-store.ts";
import { validateTreeFile } from "../src/consult/validate-tree.ts";
import { forgetKeywordTables } from "../src/search/keyword-index.ts";
import { shardsOf } from "../src/services.ts";
import { applyDemoSeed } from "./fixtures.ts";

// Files share a runtime (vitest's `isolate: false`), so each starts by emptying every Durable
// Object and D1 database and laying the prepared state again: migrations on every database, the
// demo rows the config computed once (their password hashes are the slow part) in the directory
// and on each workshop's shard, then the shipped trees, which every database serves.
await reset();
forgetKeywordTables();
const databases = [...shardsOf(env).values()];
await Promise.all(databases.map(migrate));
await applyDemoSeed(env.TEST_SEED);
const trees = await Promise.all(env.TEST_TREES.map(({ file_name, content }) => validateTreeFile(file_name, content)));
for (const db of databases) {
  for (const [index, report] of trees.entries()) {
    const fileName = env.TEST_TREES[index]?.file_name as string;
    if (report.tree) await saveTree({ db, tenantId: null, tree: report.tree, fileName, warnings: report.warnings });
  }
}

/**
 * The migrations a database lacks, all in one batch (one round trip, where applying them one by one
 * takes one each), recorded as `wrangler d1 migrations apply` and `applyD1Migrations` record them.
 */
async function migrate(db: D1Database): Promise<void> {
  await db
    .prepare(
      "CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)",
    )
    .run();
  const { results } = await db.prepare("SELECT name FROM d1_migrations").all<{ name: string }>();
  const applied = new Set(results.map((r) => r.name));
  const missing = env.TEST_MIGRATIONS.filter((migration) => !applied.has(migration.name));
  if (missing.length === 0) return;
  await db.batch([
    ...missing.flatMap((migration) => [
      ...migration.queries.map((query) => db.prepare(query)),
      db.prepare("INSERT INTO d1_migrations (name) VALUES (?1)").bind(migration.name),
    ]),
  ]);
}
