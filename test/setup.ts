import { applyD1Migrations, env, reset } from "cloudflare:test";
import { saveTree } from "../src/consult/tree-store.ts";
import { validateTreeFile } from "../src/consult/validate-tree.ts";
import { forgetKeywordTables } from "../src/search/keyword-index.ts";

// Files share a runtime (vitest's `isolate: false`), so each starts by emptying every Durable
// Object and D1 database and laying the prepared state again: migrations, then the demo rows the
// config computed once (their password hashes are the slow part), then the shipped trees.
await reset();
forgetKeywordTables();
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await env.DB.batch(env.TEST_SEED.map((sql) => env.DB.prepare(sql)));
for (const { file_name, content } of env.TEST_TREES) {
  const report = await validateTreeFile(file_name, content);
  if (report.tree)
    await saveTree({ db: env.DB, tenantId: null, tree: report.tree, fileName: file_name, warnings: report.warnings });
}
