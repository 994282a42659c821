import { env } from "cloudflare:test";
import { saveTree } from "../src/consult/tree-store.ts";
import { validateTreeFile } from "../src/consult/validate-tree.ts";
import { forgetKeywordTables } from "../src/search/keyword-index.ts";
import { shardsOf } from "../src/services.ts";
import { applyDemoSeed } from "./fixtures.ts";
import { emptyStorage, prepareSchema } from "./prepared-storage.ts";

// Files share a runtime (vitest's `isolate: false`), so each starts by emptying every Durable
// Object and D1 database and laying the prepared state again: the migrated schema on every
// database, the demo rows the config computed once (their password hashes are the slow part) in
// the directory and on each workshop's shard, then the shipped trees, which every database serves.
const databases = [...shardsOf(env).values()];
await emptyStorage(databases);
forgetKeywordTables();
await Promise.all(databases.map((db) => prepareSchema(db, env.TEST_MIGRATIONS)));
await applyDemoSeed(env.TEST_SEED);
const trees = await Promise.all(env.TEST_TREES.map(({ file_name, content }) => validateTreeFile(file_name, content)));
await Promise.all(
  databases.map(async (db) => {
    for (const [index, report] of trees.entries()) {
      const fileName = env.TEST_TREES[index]?.file_name as string;
      if (report.tree) await saveTree({ db, tenantId: null, tree: report.tree, fileName, warnings: report.warnings });
    }
  }),
);
