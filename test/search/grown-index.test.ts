import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../src/config.ts";
import { searchBackends } from "../../src/search/backends.ts";
import { forgetKeywordTables } from "../../src/search/keyword-index.ts";
import { type SearchMode, searchKnowledge } from "../../src/search/search.ts";
import { searchBindingsOf } from "../../src/services.ts";
import { dbOf } from "../fixtures.ts";
import { countingDb } from "./counting-db.ts";
import { newKnowledgeBase, uploadDocument } from "./sections.ts";

// A file of its own: the isolate must see this workshop's index small, then large, with no other
// test's chunks in it.
const TENANT = "t-jinxiu";

async function search(db: D1Database, query: string, mode: SearchMode) {
  const request = { query, mode, topK: 5, minScore: 0, rerank: mode !== "keyword" };
  const backends = searchBackends(searchBindingsOf(env), readConfig(env));
  return (await searchKnowledge({ db, backends, tenantId: TENANT, request })).results;
}

/** The same search by an isolate that has kept nothing of the index: it counts every term afresh. */
async function afresh(query: string, mode: SearchMode) {
  forgetKeywordTables();
  const counting = countingDb();
  const results = await search(counting.db, query, mode);
  expect(counting.sent.some((sql) => sql.includes("WITH matched"))).toBe(true);
  return results;
}

describe("keyword search on an index that grows", () => {
  it("matches a small index by every term of the question, with no counting in the match, as a fresh count does", async () => {
    const kb = await newKnowledgeBase("会长大的索引");
    await uploadDocument(kb, "boiler.md", "# 锅炉\n\n锅炉房的蒸汽压力每天检查两次，压力过高时打开泄压阀。");
    await uploadDocument(kb, "loom.md", "# 织机\n\n提花织机的经线张力每班校准一次。");
    await search(dbOf("t-jinxiu"), "锅炉蒸汽压力", "keyword");
    // The second question holds terms no chunk holds (食堂, 菜单): they add nothing to any score.
    for (const question of ["锅炉蒸汽压力", "食堂菜单和织机张力"])
      for (const mode of ["keyword", "hybrid"] as const) {
        const counting = countingDb();
        const results = await search(counting.db, question, mode);
        expect(counting.trips()).toBe(1);
        expect(counting.sent.filter((sql) => sql.includes("WITH matched"))).toEqual([]);
        expect(results[0]?.content).toContain(question === "锅炉蒸汽压力" ? "蒸汽压力" : "经线张力");
        expect(results).toEqual(await afresh(question, mode));
        await search(dbOf("t-jinxiu"), question, mode);
      }
  });

  it("keeps a small index's counts: a question asked again counts none of its terms, and after a write counts every one in the same round trip", async () => {
    const kb = await newKnowledgeBase("记得词频的索引");
    await uploadDocument(kb, "dye.md", "# 染色\n\n染缸的水温保持在六十度，每缸染布二十匹。");
    const question = "染缸水温";
    await search(dbOf("t-jinxiu"), question, "keyword");
    // The terms the statistics statement counts: those kept for the index's current stamp (?1), or
    // every one (?3) if the stamp has moved.
    const countedBy = (counting: ReturnType<typeof countingDb>) => {
      const i = counting.sent.findIndex((sql) => sql.includes("_vocab WHERE term IN") && !sql.includes("WITH matched"));
      const [unchanged, , changed] = counting.bound[i] as [string, string, string];
      return { unchanged: JSON.parse(unchanged) as string[], changed: JSON.parse(changed) as string[] };
    };
    const again = countingDb();
    const results = await search(again.db, question, "keyword");
    expect(again.trips()).toBe(1);
    expect(countedBy(again).unchanged).toEqual([]);
    expect(results[0]?.content).toContain("染缸的水温");
    expect(results).toEqual(await afresh(question, "keyword"));

    await search(dbOf("t-jinxiu"), question, "keyword");
    await uploadDocument(kb, "vat.md", "# 染缸\n\n染缸用完当天清洗，水温降到三十度以下再放水。");
    const afterWrite = countingDb();
    const grown = await search(afterWrite.db, question, "keyword");
    expect(afterWrite.trips()).toBe(1);
    expect(countedBy(afterWrite)).toEqual({ unchanged: [], changed: expect.arrayContaining(["染缸", "水温"]) });
    expect(grown.map((r) => [r.id, r.score])).toEqual((await afresh(question, "keyword")).map((r) => [r.id, r.score]));
  });

  it("leaves out of a small index's match a word FTS5 reads as other words, as a fresh count does", async () => {
    // New Tai Lue: letters to JavaScript (so one term to Weft), but its vowel signs are separators
    // to SQLite's older Unicode tables, so FTS5 reads ᦵᦋᦲᦂ as ᦋ and ᦂ: the index holds no such term.
    const kb = await newKnowledgeBase("傣文索引");
    await uploadDocument(kb, "river.md", "# River\n\nᦵᦋᦲᦂ river\n\n## Bank\n\nriver bank\n\n## Only\n\nᦵᦋᦲᦂ");
    for (const question of ["ᦵᦋᦲᦂ river", "ᦵᦋᦲᦂ"]) {
      const fresh = await afresh(question, "keyword");
      expect((await search(countingDb().db, question, "keyword")).map((r) => [r.id, r.score])).toEqual(
        fresh.map((r) => [r.id, r.score]),
      );
    }
  });

  it("counts and matches again once the index has grown large since it was small, as a fresh count does", async () => {
    const kb = await newKnowledgeBase("长大的索引");
    await uploadDocument(kb, "dye.md", "# 染缸\n\n染缸温度过高时先关蒸汽阀。");
    await search(dbOf("t-jinxiu"), "仓库里的染缸温度", "keyword");
    const sections = Array.from({ length: 1100 }, (_, i) => `## 第${i}节\n\n仓库盘点记录，编号${i}。`);
    await uploadDocument(kb, "log.md", `# 记录\n\n${sections.join("\n\n")}`);
    const counting = countingDb();
    const results = await search(counting.db, "仓库里的染缸温度", "keyword");
    // The batch's match took every term; the index is large now, where 仓库 (in every chunk) is left
    // out: the terms are counted and the index matched again.
    expect(counting.trips()).toBe(3);
    expect(results[0]?.content).toContain("染缸温度过高");
    expect(results).toEqual(await afresh("仓库里的染缸温度", "keyword"));
  });
});
