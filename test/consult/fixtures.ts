import { env } from "cloudflare:test";
import type { Catalog } from "../../src/consult/engine.ts";
import { validateTreeFile } from "../../src/consult/validate-tree.ts";

async function catalogOf(files: { file_name: string; content: string }[]): Promise<Catalog> {
  const catalog: Catalog = { order: [], trees: new Map() };
  for (const { file_name, content } of files) {
    const report = await validateTreeFile(file_name, content);
    if (!report.tree) throw new Error(report.errors.join("; "));
    catalog.trees.set(report.tree.id, report.tree);
    catalog.order.push(report.tree.id);
  }
  catalog.order.sort();
  return catalog;
}

/** The shipped trees as a catalog, exactly as a session would snapshot them. */
export function shippedCatalog(): Promise<Catalog> {
  return catalogOf(env.TEST_TREES);
}

/**
 * The shipped trees and the tests' own (test/consult/trees: a second topic, with English
 * triggers), as a catalog: what the engine's choices among topics are tested on.
 */
export function testCatalog(): Promise<Catalog> {
  return catalogOf([...env.TEST_TREES, ...env.TEST_CONSULT_TREES]);
}
