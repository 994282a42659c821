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
    // One upsert a tree, and the withdrawal of trees no longer shipped.
    expect(statements).toHaveLength(env.TEST_TREES.length + 1);
    for (let run = 0; run < 2; run++) await env.DB.batch(statements.map((sql) => env.DB.prepare(sql)));
    const { results } = await env.DB.prepare("SELECT tenant_id, id, title FROM consult_trees ORDER BY id, tenant_id").all();
    expect(results).toEqual([
      { tenant_id: null, id: "garment-defects", title: "服装质量问题诊断" },
      { tenant_id: "t-jinxiu", id: "garment-defects", title: "Own" },
    ]);
  });

  it("withdraw a shipped tree whose file left knowledge/trees, and keep one whose file is there but invalid", async () => {
    const gone = await validateTreeFile(
      "tech-investment.json",
      JSON.stringify({ id: "tech-investment", title: "科技投资", root: "a", nodes: { a: { response: "A" } } }),
    );
    const broken = await validateTreeFile(
      "broken.json",
      JSON.stringify({ id: "broken", title: "B", root: "a", nodes: { a: { response: "A" } } }),
    );
    await env.DB.batch(shippedTreeStatements([...(await reports()), gone, broken]).map((sql) => env.DB.prepare(sql)));
    const before = await env.DB.prepare("SELECT id FROM consult_trees WHERE tenant_id IS NULL ORDER BY id").all();
    expect(before.results.map((r) => r.id)).toEqual(["broken", "garment-defects", "tech-investment"]);
    // tech-investment.json is gone; broken.json is still there, but no longer validates.
    const stillBroken = await validateTreeFile("broken.json", "{}");
    await env.DB.batch(shippedTreeStatements([...(await reports()), stillBroken]).map((sql) => env.DB.prepare(sql)));
    const after = await env.DB.prepare("SELECT id FROM consult_trees WHERE tenant_id IS NULL ORDER BY id").all();
    expect(after.results.map((r) => r.id)).toEqual(["broken", "garment-defects"]);
  });

  it("skip a tree that does not validate", async () => {
    const bad = await validateTreeFile("bad.json", "{}");
    expect(shippedTreeStatements([bad, ...(await reports())])).toHaveLength(env.TEST_TREES.length + 1);
  });
});
