// SQL that writes the shipped decision trees (knowledge/trees) as global rows, which every
// workshop sees and may override with its own tree of the same id.
import type { Tree } from "../src/consult/tree-schema.ts";
import { sqlQuote as q } from "./sql.ts";

/**
 * One upsert per valid tree (a shipped tree is replaced in place, never deleted and re-added),
 * then the withdrawal of shipped trees whose file is no longer in knowledge/trees: a tree that
 * stops being shipped stops being offered. A file that fails to validate keeps its last version.
 */
export function shippedTreeStatements(reports: { file: string; tree: Tree | null; warnings: string[] }[]): string[] {
  const files = reports.map((report) => q(report.file)).join(", ");
  const withdraw = `DELETE FROM consult_trees WHERE tenant_id IS NULL${files ? ` AND file_name NOT IN (${files})` : ""};`;
  const upserts = reports
    .filter((report) => report.tree !== null)
    .map(({ file, tree, warnings }) => {
      const t = tree as Tree;
      return (
        "INSERT INTO consult_trees (tenant_id, id, title, version, file_name, tree_json, warnings_json) " +
        `VALUES (NULL, ${q(t.id)}, ${q(t.title)}, ${q(t.version)}, ${q(file)}, ${q(JSON.stringify(t))}, ${q(JSON.stringify(warnings))}) ` +
        "ON CONFLICT (id) WHERE tenant_id IS NULL DO UPDATE SET title = excluded.title, version = excluded.version, " +
        "file_name = excluded.file_name, tree_json = excluded.tree_json, warnings_json = excluded.warnings_json, " +
        "updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now');"
      );
    });
  return [...upserts, withdraw];
}
