import { describe, expect, it } from "vitest";
import { COMPANIONS_FROM } from "../../src/search/common-terms.ts";
import { keywordQuery, keywordTable } from "../../src/search/keyword-index.ts";
import { Synonyms } from "../../src/search/synonyms.ts";
import { dbOf } from "../fixtures.ts";
import { newKnowledgeBase, uploadSections } from "./sections.ts";

const TENANT = "t-jinxiu";

/** The workshop's keyword matches for a question, as a search reads them: content and BM25. */
async function keywordMatches(question: string, synonyms?: Synonyms): Promise<{ content: string; bm25: number }[]> {
  const query = await keywordQuery({
    db: dbOf("t-jinxiu"),
    tenantId: TENANT,
    query: question,
    kbIds: null,
    limit: 50,
    synonyms,
    readElsewhere: new Set(),
  });
  if (!query) throw new Error("no keyword query");
  const matches = await query.read(await dbOf("t-jinxiu").batch(query.statements), new Set());
  return matches.map((m) => ({ content: m.chunk?.content ?? "", bm25: m.bm25 }));
}

describe("a question's paired characters in a large keyword index", () => {
  it("find no chunk alone from 25,000 chunks on, and leave the scores of the chunks found as one query for all gives", async () => {
    const kb = await newKnowledgeBase("工资");
    await uploadSections(kb, "pay.md", [
      "## 工资\n\n计件工资按件计算，月底结清。",
      "## 统计\n\n每天统计做了多少件衣服。",
      "## 休息\n\n周日休息。",
    ]);
    const small = await keywordMatches("计件");
    expect(small.map((m) => m.content)).toEqual(["计件工资按件计算，月底结清。", "每天统计做了多少件衣服。"]);

    // Rows of no chunk in the workshop's index make it large, as another knowledge base's would.
    const table = await keywordTable(TENANT);
    await dbOf("t-jinxiu")
      .prepare(
        `INSERT INTO ${table} (rowid, terms)
       WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${COMPANIONS_FROM})
       SELECT 10000000 + i, 'filler' FROM n`,
      )
      .run();
    const large = await keywordMatches("计件");
    expect(large.map((m) => m.content)).toEqual(["计件工资按件计算，月底结清。"]);
    const one = await dbOf("t-jinxiu")
      .prepare(
        `SELECT bm25(${table}) AS bm25 FROM ${table} JOIN chunks c ON c.rowid = ${table}.rowid
        WHERE ${table} MATCH '"计" OR "件" OR "计件"' AND c.content LIKE '计件工资%'`,
      )
      .first<{ bm25: number }>();
    expect(large[0]?.bm25).toBeCloseTo(-(one?.bm25 as number), 12);

    // A synonym's pair widens the match: the question's own character still finds what holds it alone.
    await uploadSections(kb, "price.md", ["## 定价\n\n定价很高。", "## 价格表\n\n价格表在这里。"]);
    const priced = await keywordMatches("价", new Synonyms([["价", "价格"]]));
    expect(priced.map((m) => m.content).sort()).toEqual(["价格表在这里。", "定价很高。"]);
  });
});
