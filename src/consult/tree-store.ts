import { log } from "../log.ts";
import type { Catalog } from "./engine.ts";
import type { Tree } from "./tree-schema.ts";

export interface TreeSummary {
  id: string;
  title: string;
  version: string;
  file_name: string;
  warnings: string[];
  updated_at: string;
}

interface TreeRow {
  id: string;
  title: string;
  version: string;
  file_name: string;
  tree_json: string;
  warnings_json: string;
  updated_at: string;
}

/** Stores a validated tree, replacing any earlier version with the same id. */
export async function saveTree({
  db,
  tree,
  fileName,
  warnings,
}: {
  db: D1Database;
  tree: Tree;
  fileName: string;
  warnings: string[];
}) {
  await db
    .prepare(
      `INSERT INTO consult_trees (id, title, version, file_name, tree_json, warnings_json) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
       ON CONFLICT (id) DO UPDATE SET title = ?2, version = ?3, file_name = ?4, tree_json = ?5, warnings_json = ?6,
         updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    )
    .bind(tree.id, tree.title, tree.version, fileName, JSON.stringify(tree), JSON.stringify(warnings))
    .run();
}

/** The stored trees, without their bodies. */
export async function listTrees({ db }: { db: D1Database }): Promise<TreeSummary[]> {
  const { results } = await db
    .prepare("SELECT id, title, version, file_name, warnings_json, updated_at FROM consult_trees ORDER BY id")
    .all<Omit<TreeRow, "tree_json">>();
  return results.map(({ warnings_json, ...row }) => ({ ...row, warnings: JSON.parse(warnings_json) as string[] }));
}

/** Deletes a tree; open sessions keep the snapshot they started with. Returns whether it existed. */
export async function deleteTree({ db, id }: { db: D1Database; id: string }): Promise<boolean> {
  const result = await db.prepare("DELETE FROM consult_trees WHERE id = ?1").bind(id).run();
  return result.meta.changes > 0;
}

/**
 * Every stored tree, ready to snapshot into a new session. A row that no longer parses is logged
 * and skipped, so one bad tree never stops the others from serving.
 */
export async function loadCatalog({ db }: { db: D1Database }): Promise<Catalog> {
  const { results } = await db
    .prepare("SELECT id, tree_json FROM consult_trees ORDER BY id")
    .all<Pick<TreeRow, "id" | "tree_json">>();
  const catalog: Catalog = { order: [], trees: {} };
  for (const row of results) {
    try {
      catalog.trees[row.id] = JSON.parse(row.tree_json) as Tree;
      catalog.order.push(row.id);
    } catch (error) {
      log("error", "consult_tree_unreadable", { tree_id: row.id, error });
    }
  }
  return catalog;
}
