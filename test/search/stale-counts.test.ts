import { describe, expect, it } from "vitest";
import { forgetKeywordTables, keywordQuery } from "../../src/search/keyword-index.ts";
import { dbOf, users } from "../fixtures.ts";
import { newKnowledgeBase, uploadSections } from "./sections.ts";

// A file of its own: the workshop's keyword index must hold this test's chunks alone, so that the
// upload moves boiler from under 30% of the chunks (320 of 1,101) to over it (520 of 1,301).
describe("a keyword match chosen by kept counts", () => {
  it("does not take a match chosen by counts older than the index it ran on, whatever this isolate keeps by then", async () => {
    const kb = { id: await newKnowledgeBase("竞态大索引") };
    const upload = (filename: string, sections: string[]) => uploadSections(kb.id, filename, sections);
    await upload("a.md", [
      ...Array.from({ length: 1100 }, (_, i) => `## Part ${i}\n\nfiller record number${i}${i < 320 ? " boiler" : ""}.`),
      "## Valve\n\nthe steam valve is here.",
    ]);
    const query = () =>
      keywordQuery({
        db: dbOf("t-jinxiu"),
        tenantId: users.boss.tenantId,
        query: "boiler valve",
        kbIds: [kb.id],
        limit: 10,
        readElsewhere: new Set(),
      });
    const run = async (q: Awaited<ReturnType<typeof query>>) =>
      q ? q.read(await dbOf("t-jinxiu").batch(q.statements), new Set()) : [];
    forgetKeywordTables();
    // Kept: boiler in 320 of about 1,100 chunks, under 30%, so matched.
    await run(await query());
    const built = await query();
    // Now boiler is in more than 30% of the chunks; a search counts afresh and keeps the new counts
    // before the one built on the old counts runs.
    await upload(
      "b.md",
      Array.from({ length: 200 }, (_, i) => `## More ${i}\n\nboiler log entry${i}.`),
    );
    await run(await query());
    const late = await run(built);
    forgetKeywordTables();
    const fresh = await run(await query());
    expect(fresh).toHaveLength(1);
    expect(fresh[0]?.chunk?.content).toContain("steam valve");
    expect(late).toEqual(fresh);
  });
});
