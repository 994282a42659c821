// npm run knowledge:check: validates every decision tree in knowledge/trees. Exit 1 on any error.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type TreeReport as FileReport, validateTreeFile } from "../src/consult/validate-tree.ts";
import { ROOT } from "./lib.ts";

const TREES = join(ROOT, "knowledge", "trees");

/** What `checkTrees` says of one file: the validator's report and where the file is. */
export type TreeReport = FileReport & { path: string };

/** Reads and validates every tree file; returns one report per file. */
export async function checkTrees(): Promise<TreeReport[]> {
  const files = readdirSync(TREES).filter((f) => /\.(json|ya?ml)$/i.test(f));
  return Promise.all(
    files.map(async (file) => ({
      ...(await validateTreeFile(file, readFileSync(join(TREES, file), "utf8"))),
      path: join(TREES, file),
    })),
  );
}

/** Prints each report; returns whether every tree is valid. */
export function printReports(reports: TreeReport[]): boolean {
  for (const report of reports) {
    const status = report.tree ? `ok (${report.tree.id}, ${Object.keys(report.tree.nodes).length} nodes)` : "INVALID";
    console.log(`${report.file}: ${status}`);
    for (const error of report.errors) console.log(`  error: ${error}`);
    for (const warning of report.warnings) console.log(`  warning: ${warning}`);
  }
  return reports.every((r) => r.tree);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!printReports(await checkTrees())) process.exit(1);
}
