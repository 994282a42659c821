import { type D1Migration, reset } from "cloudflare:test";

/**
 * Empties every Durable Object and database. `reset()` now and then leaves the databases as the
 * previous file left them (seen about once in a run of all the files; a second reset empties them),
 * and that file's rows would then be this file's start. So the databases are checked, and reset
 * again until they are empty.
 */
export async function emptyStorage(databases: D1Database[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await reset();
    const left = await Promise.all(
      databases.map((db) =>
        db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name NOT LIKE '!_cf!_%' ESCAPE '!'").first<{ n: number }>(),
      ),
    );
    if (left.every((row) => row?.n === 0)) return;
    if (attempt === 5) throw new Error(`reset() left tables in a database ${attempt} times over`);
    await scheduler.wait(50);
  }
}

/**
 * The schema the migrations make, read back from the first database a test worker migrated. Test
 * files share a worker's modules (vitest's `isolate: false`), so every later file lays this in one
 * batch of about 70 statements rather than replaying 27 migrations (135 statements, tables rebuilt
 * along the way): the set-up every file pays. test/migrations.test.ts and test/shards.test.ts still
 * run the migrations themselves.
 */
let schema: string[] | undefined;

/** Gives `db` the migrated schema, its `d1_migrations` rows included, as `applyD1Migrations` would. */
export async function prepareSchema(db: D1Database, migrations: D1Migration[]): Promise<void> {
  const record = migrations.map((m) => db.prepare("INSERT INTO d1_migrations (name) VALUES (?1)").bind(m.name));
  if (schema) {
    await db.batch([...schema.map((sql) => db.prepare(sql)), ...record]);
    return;
  }
  await db.batch([
    db.prepare(
      "CREATE TABLE d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)",
    ),
    ...migrations.flatMap((m) => m.queries.map((query) => db.prepare(query))),
    ...record,
  ]);
  // In the order they were made, so a table exists before its indexes and triggers; SQLite's own
  // objects and D1's (`_cf_`) are made by the database itself.
  const { results } = await db
    .prepare(
      "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite!_%' ESCAPE '!' AND name NOT LIKE '!_cf!_%' ESCAPE '!' ORDER BY rowid",
    )
    .all<{ sql: string }>();
  schema ??= results.map((r) => r.sql);
}
