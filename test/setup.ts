import { applyD1Migrations, env } from "cloudflare:test";
import { demoSeedStatements } from "../scripts/demo-data.ts";
import { saveTree } from "../src/consult/tree-store.ts";
import { validateTreeFile } from "../src/consult/validate-tree.ts";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await env.DB.batch((await demoSeedStatements()).map((sql) => env.DB.prepare(sql)));
for (const { file_name, content } of env.TEST_TREES) {
  const report = await validateTreeFile(file_name, content);
  if (report.tree)
    await saveTree({ db: env.DB, tenantId: null, tree: report.tree, fileName: file_name, warnings: report.warnings });
}
