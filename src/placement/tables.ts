import { keywordTable } from "../search/keyword-index.ts";

/**
 * Which rows of each table are one workshop's, for moving and checking them: every table of a
 * shard is either the workshop's (here, with the condition that picks its rows, `?1` its id) or the
 * directory's (`DIRECTORY_TABLES`). test/placement/tables.test.ts holds every table of the schema to
 * one list or the other, so a table added later cannot be left behind by a move.
 */
export const WORKSHOP_TABLES: Readonly<Record<string, string>> = {
  tenants: "id = ?1",
  knowledge_bases: "tenant_id = ?1",
  documents: "tenant_id = ?1",
  chunks: "tenant_id = ?1",
  consult_trees: "tenant_id = ?1",
  synonym_sets: "tenant_id = ?1",
  faq_entries: "tenant_id = ?1",
  employees: "tenant_id = ?1",
  styles: "tenant_id = ?1",
  processes: "tenant_id = ?1",
  process_prices: "tenant_id = ?1",
  orders: "tenant_id = ?1",
  piece_records: "tenant_id = ?1",
  payroll_adjustments: "tenant_id = ?1",
  business_audit: "tenant_id = ?1",
  chats: "tenant_id = ?1",
  chat_messages: "chat_id IN (SELECT id FROM chats WHERE tenant_id = ?1)",
  chat_feedback: "tenant_id = ?1",
  mcp_servers: "tenant_id = ?1",
  workshop_objects: "tenant_id = ?1",
  document_jobs: "tenant_id = ?1",
  document_job_parts: "job_id IN (SELECT job_id FROM document_jobs WHERE tenant_id = ?1)",
};

/** Rows copied or checked per step of a move, so one step is a bounded amount of work. */
export const PAGE_ROWS = 400;
/** …and of a table of large values (a file's parts, 1 MiB each), a page that is a step's whole work. */
const LARGE_PAGE_ROWS = 4;

/** The directory's tables (people and credentials), and D1's and SQLite's own: never moved. */
export const DIRECTORY_TABLES: ReadonlySet<string> = new Set([
  "users",
  "api_keys",
  "web_sessions",
  "sign_in_attempts",
  "oauth_connections",
  "password_links",
  "operator_keys",
  "invite_codes",
  "d1_migrations",
]);

/** Tables neither list names because D1, SQLite or the keyword index own them. */
export function isInternalTable(name: string): boolean {
  return name.startsWith("sqlite_") || name.startsWith("_cf_") || /^fts_[0-9a-f]+(_|$)/.test(name);
}

/**
 * Columns of `tenants` that only the directory's entry uses (where the workshop lives, its move):
 * a shard's copy of the record leaves them alone, and a move neither copies nor compares them.
 */
const DIRECTORY_COLUMNS = new Set(["shard", "move_to", "move_from", "move_state", "move_since", "move_progress"]);

/** A workshop table as a move copies it: its columns, and the order that pages it the same on both shards. */
export interface TableLayout {
  name: string;
  where: string;
  /** The columns copied: all but an integer rowid alias, which each shard numbers itself. */
  columns: string[];
  /** A key that orders the rows the same on both shards (the primary key, or every column). */
  key: string[];
  /** The most rows a step reads at once: few for a table of large values (a file's parts, 1 MiB each). */
  pageRows: number;
}

// The schema does not change under a running isolate (migrations come with a deploy or a restart).
const layoutsOf = new WeakMap<D1Database, Promise<TableLayout[]>>();

/**
 * The workshop tables as they are on `db`, parents before children (by their foreign keys), so a
 * copy inserts every row after what it references and a delete goes the other way. Read once per
 * isolate and database.
 */
export function tableLayouts(db: D1Database): Promise<TableLayout[]> {
  let layouts = layoutsOf.get(db);
  if (!layouts) {
    layouts = readLayouts(db);
    layoutsOf.set(db, layouts);
    layouts.catch(() => layoutsOf.delete(db));
  }
  return layouts;
}

async function readLayouts(db: D1Database): Promise<TableLayout[]> {
  const names = Object.keys(WORKSHOP_TABLES);
  const statements = names.flatMap((name) => [
    db.prepare("SELECT name, type, pk FROM pragma_table_info(?1) ORDER BY cid").bind(name),
    db.prepare('SELECT "table" AS parent FROM pragma_foreign_key_list(?1)').bind(name),
  ]);
  const results = await db.batch<Record<string, unknown>>(statements);
  const layouts = new Map<string, TableLayout & { parents: string[] }>();
  names.forEach((name, i) => {
    const info = (results[2 * i]?.results ?? []) as { name: string; type: string; pk: number }[];
    const parents = ((results[2 * i + 1]?.results ?? []) as { parent: string }[]).map((r) => r.parent);
    const rowidAlias = info.find(
      (c) => c.pk === 1 && c.type.toUpperCase() === "INTEGER" && info.filter((x) => x.pk > 0).length === 1,
    );
    const columns = info
      .filter((c) => c !== rowidAlias && !(name === "tenants" && DIRECTORY_COLUMNS.has(c.name)))
      .map((c) => c.name);
    const primary = info
      .filter((c) => c.pk > 0 && c !== rowidAlias)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    // A table keyed by a rowid alias (chunks) is paged by its unique id instead.
    const key = primary.length > 0 ? primary : columns.includes("id") ? ["id"] : columns;
    const pageRows = info.some((c) => c.type.toUpperCase() === "BLOB") ? LARGE_PAGE_ROWS : PAGE_ROWS;
    layouts.set(name, { name, where: WORKSHOP_TABLES[name] as string, columns, key, pageRows, parents });
  });
  const ordered: TableLayout[] = [];
  const placed = new Set<string>();
  const visit = (name: string, path: Set<string>) => {
    const layout = layouts.get(name);
    if (!layout || placed.has(name) || path.has(name)) return;
    path.add(name);
    for (const parent of layout.parents) visit(parent, path);
    placed.add(name);
    const { parents: _, ...table } = layout;
    ordered.push(table);
  };
  for (const name of names) visit(name, new Set());
  return ordered;
}

/** The keyword index table of a workshop, which a move rebuilds from its terms rather than copies. */
export function keywordTableOf(workshopId: string): Promise<string> {
  return keywordTable(workshopId);
}
