import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { shippedTreeStatements } from "../../scripts/shipped-trees.ts";
import { saveTree } from "../../src/consult/tree-store.ts";
import { validateTreeFile } from "../../src/consult/validate-tree.ts";

async function reports() {
  return Promise.all(env.TEST_TREES.map(({ file_name, content }) => validateTreeFile(file_name, content)));
}

describe("the shipped trees' seed statements", () => {
  it("write each shipped tree once, as a global row, however often they run, and leave workshops' own trees alone", async () => {
    const own = await validateTreeFile(
      "garment-defects.json",
      JSON.stringify({ id: "garment-defects", title: "Own", root: "a", nodes: { a: { response: "A" } } }),
    );
    await saveTree({ db: env.DB, tenantId: "t-jinxiu", tree: own.tree!, fileName: "garment-defects.json", warnings: [] });
    const statements = shippedTreeStatements(await reports());
    expect(statements).toHaveLength(env.TEST_TREES.length);
    for (let run = 0; run < 2; run++) await env.DB.batch(statements.map((sql) => env.DB.prepare(sql)));
    const { results } = await env.DB.prepare("SELECT tenant_id, id, title FROM consult_trees ORDER BY id, tenant_id").all();
    expect(results).toEqual([
      { tenant_id: null, id: "garment-defects", title: "服装质量问题诊断" },
      { tenant_id: "t-jinxiu", id: "garment-defects", title: "Own" },
      { tenant_id: null, id: "tech-investment", title: expect.any(String) },
    ]);
  });

  it("skip a tree that does not validate", async () => {
    const bad = await validateTreeFile("bad.json", "{}");
    expect(shippedTreeStatements([bad, ...(await reports())])).toHaveLength(env.TEST_TREES.length);
  });
});
