import { log } from "../log.ts";
import type { Catalog } from "./engine.ts";
import type { Tree } from "./tree-schema.ts";
import { RESERVED_NAMES, reservedNamesIn } from "./validate-tree.ts";

/** Where a tree comes from: shipped with Weft (every workshop sees it) or the workshop's own. */
export type TreeScope = "shipped" | "workshop";

export interface TreeSummary {
  id: string;
  title: string;
  version: string;
  file_name: string;
  scope: TreeScope;
  warnings: string[];
  updated_at: string;
}

interface TreeRow {
  id: string;
  tenant_id: string | null;
  title: string;
  version: string;
  file_name: string;
  tree_json: string;
  warnings_json: string;
  updated_at: string;
}

// The trees a workshop sees: its own, and each shipped tree it has not overridden with its own.
const VISIBLE = `(t.tenant_id = ?1 OR (t.tenant_id IS NULL AND NOT EXISTS (
    SELECT 1 FROM consult_trees w WHERE w.tenant_id = ?1 AND w.id = t.id)))`;

/**
 * Stores a validated tree, replacing any earlier version with the same id in the same scope:
 * a workshop's own tree (`tenantId`), or a shipped one (`tenantId: null`, the seed and tests).
 */
export async function saveTree({
  db,
  tenantId,
  tree,
  fileName,
  warnings,
}: {
  db: D1Database;
  tenantId: string | null;
  tree: Tree;
  fileName: string;
  warnings: string[];
}) {
  const target = tenantId === null ? "(id) WHERE tenant_id IS NULL" : "(tenant_id, id) WHERE tenant_id IS NOT NULL";
  await db
    .prepare(
      `INSERT INTO consult_trees (tenant_id, id, title, version, file_name, tree_json, warnings_json)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
       ON CONFLICT ${target} DO UPDATE SET title = ?3, version = ?4, file_name = ?5, tree_json = ?6, warnings_json = ?7,
         updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    )
    .bind(tenantId, tree.id, tree.title, tree.version, fileName, JSON.stringify(tree), JSON.stringify(warnings))
    .run();
}

/** The trees the workshop sees, without their bodies. */
export async function listTrees({ db, tenantId }: { db: D1Database; tenantId: string }): Promise<TreeSummary[]> {
  const { results } = await db
    .prepare(
      `SELECT t.id, t.tenant_id, t.title, t.version, t.file_name, t.warnings_json, t.updated_at
         FROM consult_trees t WHERE ${VISIBLE} ORDER BY t.id`,
    )
    .bind(tenantId)
    .all<Omit<TreeRow, "tree_json">>();
  // A reserved id can only be a row from before names were checked; consultations skip it too.
  return results
    .filter((row) => !RESERVED_NAMES.has(row.id))
    .map(({ warnings_json, tenant_id, ...row }) => ({
      ...row,
      scope: tenant_id === null ? "shipped" : "workshop",
      warnings: JSON.parse(warnings_json) as string[],
    }));
}

/**
 * Deletes one of the workshop's own trees; open sessions keep the snapshot they started with.
 * Says whether it was deleted, or why not: no such tree, or a shipped one (which no workshop
 * may delete, only override).
 */
export async function deleteTree({
  db,
  tenantId,
  id,
}: {
  db: D1Database;
  tenantId: string;
  id: string;
}): Promise<"deleted" | "shipped" | "missing"> {
  const [deleted, shipped] = await db.batch<{ id: string }>([
    db.prepare("DELETE FROM consult_trees WHERE tenant_id = ?1 AND id = ?2 RETURNING id").bind(tenantId, id),
    db.prepare("SELECT id FROM consult_trees WHERE tenant_id IS NULL AND id = ?1").bind(id),
  ]);
  if ((deleted?.results.length ?? 0) > 0) return "deleted";
  return (shipped?.results.length ?? 0) > 0 ? "shipped" : "missing";
}

/**
 * The trees the workshop sees, ready to snapshot into a new session. A row that no longer parses,
 * or holds a reserved name (stored before names were checked), is logged and skipped, so one bad
 * tree never stops the others from serving.
 */
export async function loadCatalog({ db, tenantId }: { db: D1Database; tenantId: string }): Promise<Catalog> {
  const { results } = await db
    .prepare(`SELECT t.id, t.tree_json FROM consult_trees t WHERE ${VISIBLE} ORDER BY t.id`)
    .bind(tenantId)
    .all<Pick<TreeRow, "id" | "tree_json">>();
  const catalog: Catalog = { order: [], trees: new Map() };
  for (const row of results) {
    try {
      const tree = JSON.parse(row.tree_json) as Tree;
      const reserved = reservedNamesIn(tree);
      if (reserved.length > 0) throw new Error(`reserved names: ${reserved.join(", ")}`);
      catalog.trees.set(row.id, tree);
      catalog.order.push(row.id);
    } catch (error) {
      log("error", "consult_tree_unreadable", { tree_id: row.id, error });
    }
  }
  return catalog;
}
