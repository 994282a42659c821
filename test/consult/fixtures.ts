import { env } from "cloudflare:test";
import type { Catalog } from "../../src/consult/engine.ts";
import { validateTreeFile } from "../../src/consult/validate-tree.ts";

/** The shipped trees as a catalog, exactly as a session would snapshot them. */
export async function shippedCatalog(): Promise<Catalog> {
  const catalog: Catalog = { order: [], trees: new Map() };
  for (const { file_name, content } of env.TEST_TREES) {
    const report = await validateTreeFile(file_name, content);
    if (!report.tree) throw new Error(report.errors.join("; "));
    catalog.trees.set(report.tree.id, report.tree);
    catalog.order.push(report.tree.id);
  }
  catalog.order.sort();
  return catalog;
}
