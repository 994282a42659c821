// npm run knowledge:ship [-- --remote]: writes knowledge/trees as shipped trees, which every
// workshop sees. Locally by default (npm run dev does it on every start); with --remote into the
// production databases, the directory and every shard (after `wrangler login`). Workshop admins upload their own trees through the API.
import { parseArgs } from "node:util";
import { checkTrees, printReports } from "./knowledge-check.ts";
import { d1Bindings, executeSql, requireNode22 } from "./lib.ts";
import { shippedTreeStatements } from "./shipped-trees.ts";

/** Validates and writes the shipped trees; an invalid one is reported and skipped. Returns `id@version`s. */
export async function shipTrees({
  persistTo,
  remote = false,
  config,
}: {
  persistTo?: string | undefined;
  remote?: boolean;
  /** The wrangler.toml to read (the project's unless given). */
  config?: string | undefined;
} = {}): Promise<string[]> {
  const reports = await checkTrees();
  const valid = printReports(reports);
  if (!valid) console.log("Invalid trees are skipped; the others are served.");
  const statements = shippedTreeStatements(reports);
  if (statements.length > 0) {
    const where = remote ? ["--remote", "--env", "production"] : ["--local", ...(persistTo ? ["--persist-to", persistTo] : [])];
    const target = [...where, ...(config ? ["-c", config] : [])];
    // Every database serves the shipped trees to the workshops it holds.
    for (const database of d1Bindings({ production: remote, ...(config ? { config } : {}) })) {
      executeSql("shipped-trees", statements, target, database);
    }
  }
  return reports.flatMap((r) => (r.tree ? [`${r.tree.id}@${r.tree.version}`] : []));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  requireNode22();
  const { values } = parseArgs({ options: { remote: { type: "boolean", default: false } } });
  const shipped = await shipTrees({ persistTo: process.env.WEFT_STATE_DIR, remote: values.remote });
  console.log(`Shipped trees: ${shipped.join(", ") || "none"}`);
}
