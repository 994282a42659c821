// A database's rows as SQL statements, and back: what `npm run backup` writes for each database
// (the directory and every shard) and `npm run restore` reads. The keyword indexes (FTS5 tables,
// which `wrangler d1 export` refuses) are left out and rebuilt from the chunks after a restore,
// with the vectors (POST /api/admin/workshops/:id/reindex). No Node or Workers API here: a script
// runs it through wrangler, the tests through D1 itself.
import { isInternalTable } from "../../src/placement/tables.ts";

type Row = Record<string, unknown>;

/** A database a backup reads or a restore writes. */
export interface SqlDatabase {
  /** The rows of each query, in one round trip (each is a wrangler run from a script). */
  query(sqls: string[]): Promise<Row[][]>;
  /** Runs statements in order, as one unit where the database can. */
  run(statements: string[]): Promise<void>;
}

async function one<T>(db: SqlDatabase, sql: string): Promise<T[]> {
  const [rows] = await db.query([sql]);
  return (rows ?? []) as T[];
}

/** What a database's backup holds besides its statements: enough to check a restore against. */
export interface DumpManifest {
  /** The migrations the database had applied: a restore needs them all, and applies them first. */
  migrations: string[];
  /** Each table's row count, parents before children. */
  tables: Record<string, number>;
}

export interface DatabaseDump {
  manifest: DumpManifest;
  /** INSERT statements (and UPDATEs appending the rest of long values), parents' rows first. */
  statements: string[];
}

/** The longest piece of a value one statement carries: D1 refuses statements over 100 KB. */
const PIECE = 30_000;
/** Rows read per query; a table with a BLOB column (a file's parts, 1 MiB each) a few at a time. */
const PAGE_ROWS = 200;
const BLOB_PAGE_ROWS = 2;

interface Column {
  name: string;
  blob: boolean;
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The tables a backup holds (all but D1's, SQLite's, the keyword indexes and the migrations' record), parents first. */
async function tables(db: SqlDatabase): Promise<{ name: string; columns: Column[] }[]> {
  // D1 refuses a pragma on its own tables, and the keyword indexes' are not backed up.
  const ours = "m.type = 'table' AND m.name NOT GLOB '_cf_*' AND m.name NOT GLOB 'sqlite_*' AND m.name NOT GLOB 'fts_*'";
  const [columns = [], parents = []] = await db.query([
    `SELECT m.name AS tbl, p.name AS name, p.type AS type FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE ${ours} ORDER BY m.name, p.cid`,
    `SELECT m.name AS tbl, f."table" AS parent FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f WHERE ${ours}`,
  ]);
  const info = new Map<string, { columns: Column[]; parents: string[] }>();
  for (const c of columns as { tbl: string; name: string; type: string }[]) {
    if (isInternalTable(c.tbl) || c.tbl === "d1_migrations") continue;
    const table = info.get(c.tbl) ?? { columns: [], parents: [] };
    table.columns.push({ name: c.name, blob: String(c.type).toUpperCase() === "BLOB" });
    info.set(c.tbl, table);
  }
  for (const p of parents as { tbl: string; parent: string }[]) info.get(p.tbl)?.parents.push(p.parent);
  const ordered: { name: string; columns: Column[] }[] = [];
  const placed = new Set<string>();
  const visit = (name: string, path: Set<string>) => {
    const table = info.get(name);
    if (!table || placed.has(name) || path.has(name)) return;
    path.add(name);
    for (const parent of table.parents) visit(parent, path);
    placed.add(name);
    ordered.push({ name, columns: table.columns });
  };
  for (const name of [...info.keys()].sort()) visit(name, new Set());
  return ordered;
}

/** A value as SQL text: a string or a BLOB's hex longer than a piece is cut, the rest appended after. */
function literal(value: unknown, blob: boolean): { head: string; rest: string[] } {
  if (value === null || value === undefined) return { head: "NULL", rest: [] };
  if (typeof value === "number" || typeof value === "bigint") return { head: String(value), rest: [] };
  const text = String(value);
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += PIECE) pieces.push(text.slice(at, at + PIECE));
  const wrap = (piece: string) => (blob ? `X'${piece}'` : quote(piece));
  if (pieces.length === 0) return { head: wrap(""), rest: [] };
  return { head: wrap(pieces[0] as string), rest: pieces.slice(1).map(wrap) };
}

/**
 * Every row of `db` as statements that put it into an empty database of the same schema, rowids
 * kept. Reads a page of every unfinished table per round trip.
 */
export async function dumpDatabase(db: SqlDatabase): Promise<DatabaseDump> {
  const migrations = (await one<{ name: string }>(db, "SELECT name FROM d1_migrations ORDER BY id")).map((m) => m.name);
  const all = await tables(db);
  const byTable = new Map(all.map((t) => [t.name, [] as string[]]));
  const manifest: DumpManifest = { migrations, tables: Object.fromEntries(all.map((t) => [t.name, 0])) };
  const pageOf = (t: { columns: Column[] }) => (t.columns.some((c) => c.blob) ? BLOB_PAGE_ROWS : PAGE_ROWS);
  let open = all.map((table) => ({ table, after: Number.MIN_SAFE_INTEGER }));
  while (open.length > 0) {
    const pages = await db.query(
      open.map(({ table, after }) => {
        const select = table.columns
          .map((c) => (c.blob ? `hex(${ident(c.name)}) AS ${ident(c.name)}` : ident(c.name)))
          .join(", ");
        return `SELECT rowid AS "__rowid", ${select} FROM ${ident(table.name)} WHERE rowid > ${after} ORDER BY rowid LIMIT ${pageOf(table)}`;
      }),
    );
    open = open.flatMap((cursor, i) => {
      const { table } = cursor;
      const rows = pages[i] ?? [];
      const statements = byTable.get(table.name) as string[];
      // A table whose own column is the rowid (chunks) keeps it through that column.
      const ownRowid = table.columns.some((c) => c.name.toLowerCase() === "rowid");
      const names = table.columns.map((c) => ident(c.name)).join(", ");
      const into = `INSERT INTO ${ident(table.name)} (${ownRowid ? names : `rowid, ${names}`})`;
      for (const row of rows) {
        const rowid = Number(row.__rowid);
        const values = table.columns.map((c) => ({ column: c, ...literal(row[c.name], c.blob) }));
        const heads = values.map((v) => v.head).join(", ");
        statements.push(`${into} VALUES (${ownRowid ? heads : `${rowid}, ${heads}`});`);
        for (const value of values) {
          for (const piece of value.rest) {
            const name = ident(value.column.name);
            statements.push(`UPDATE ${ident(table.name)} SET ${name} = ${name} || ${piece} WHERE rowid = ${rowid};`);
          }
        }
        cursor.after = rowid;
      }
      manifest.tables[table.name] = (manifest.tables[table.name] ?? 0) + rows.length;
      return rows.length < pageOf(table) ? [] : [cursor];
    });
  }
  return { manifest, statements: all.flatMap((t) => byTable.get(t.name) as string[]) };
}

/** Each table's row count. */
async function counts(db: SqlDatabase, names: string[]): Promise<Map<string, number>> {
  const results = await db.query(names.map((name) => `SELECT COUNT(*) AS n FROM ${ident(name)}`));
  return new Map(names.map((name, i) => [name, Number((results[i]?.[0] as { n?: number } | undefined)?.n ?? 0)]));
}

/** Why a database cannot take a backup, or null: it must have every migration the backup had and hold no rows. */
export async function restoreRefusal(db: SqlDatabase, manifest: DumpManifest): Promise<string | null> {
  const [record] = await one(db, "SELECT 1 AS ok FROM sqlite_master WHERE type = 'table' AND name = 'd1_migrations'");
  const applied = new Set(record ? (await one<{ name: string }>(db, "SELECT name FROM d1_migrations")).map((m) => m.name) : []);
  const lacking = manifest.migrations.filter((m) => !applied.has(m));
  if (lacking.length > 0) return `it lacks migrations the backup was made with (${lacking.join(", ")}): apply them first`;
  const present = (await tables(db)).map((t) => t.name);
  const unknown = Object.keys(manifest.tables).filter((name) => !present.includes(name));
  if (unknown.length > 0) return `it has no table ${unknown.join(", ")}: is the backup from a newer version of Weft?`;
  for (const [name, n] of await counts(db, present)) {
    if (n > 0) return `it is not empty (${name} holds ${n} rows): restore into new, empty databases`;
  }
  return null;
}

/**
 * Puts a backup into `db` (checked by `restoreRefusal` first), `batch` statements at a time, then
 * checks every table's row count against the backup's.
 */
export async function restoreDatabase(db: SqlDatabase, dump: DatabaseDump, { batch = 500 } = {}): Promise<void> {
  const refusal = await restoreRefusal(db, dump.manifest);
  if (refusal) throw new Error(`This database cannot take the backup: ${refusal}.`);
  for (let at = 0; at < dump.statements.length; at += batch) {
    // A table that refers to itself may hold a child before its parent: foreign keys are checked at the end of each batch.
    await db.run(["PRAGMA defer_foreign_keys = on;", ...dump.statements.slice(at, at + batch)]);
  }
  for (const [name, n] of await counts(db, Object.keys(dump.manifest.tables))) {
    const expected = dump.manifest.tables[name];
    if (n !== expected) throw new Error(`After the restore ${name} holds ${n} rows; the backup has ${expected}.`);
  }
}
