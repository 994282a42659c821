import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { COMPANIONS_FROM, matchedTerms, matchQueries, matchQueriesSql } from "../../src/search/common-terms.ts";

const statistics = (total: number, frequencies: Record<string, number>) => ({
  total,
  df: new Map(Object.entries(frequencies)),
});

describe("the terms a keyword index is matched by", () => {
  it("leaves out a term in more than 30% of a large index's chunks, and every term in no chunk", () => {
    const terms = matchedTerms(["车间", "锅炉", "阀门", "蒸汽"], statistics(10_000, { 车间: 3_001, 锅炉: 12, 蒸汽: 3_000 }));
    expect(terms).toEqual(["锅炉", "蒸汽"]);
  });

  it("leaves out a term in more than 7,500 chunks however large the index, so no term costs more to score", () => {
    const terms = matchedTerms(["记录", "编号", "锅炉"], statistics(50_000, { 记录: 7_501, 编号: 7_500, 锅炉: 40 }));
    expect(terms).toEqual(["编号", "锅炉"]);
  });

  it("matches every term present when all of them are common", () => {
    const terms = matchedTerms(["记录", "编号", "锅炉"], statistics(50_000, { 记录: 20_000, 编号: 9_000 }));
    expect(terms).toEqual(["记录", "编号"]);
  });

  it("matches every term present in a small index, however common", () => {
    expect(matchedTerms(["记录", "锅炉", "阀门"], statistics(999, { 记录: 999, 锅炉: 1 }))).toEqual(["记录", "锅炉"]);
  });
});

describe("the queries a keyword index is matched by", () => {
  it("in a large index, finds chunks by a question's pairs and other words, its paired characters only adding to their scores", () => {
    const terms = ["计", "件", "计件", "登", "记", "登记", "机", "gb", "1", "10"];
    expect(matchQueries(terms, COMPANIONS_FROM)).toEqual([
      '("计件" OR "登记" OR "机" OR "gb" OR "1" OR "10") AND ("计" OR "件" OR "登" OR "记")',
      '("计件" OR "登记" OR "机" OR "gb" OR "1" OR "10") NOT ("计" OR "件" OR "登" OR "记")',
    ]);
  });

  it("matches every term with one query where the index is smaller, or no term pairs", () => {
    const nothing = '"zzzzzzzzzz" NOT "zzzzzzzzzz"';
    expect(matchQueries(["计", "件", "计件"], COMPANIONS_FROM - 1)).toEqual(['"计" OR "件" OR "计件"', nothing]);
    expect(matchQueries(["计", "登记", "gb", "g"], COMPANIONS_FROM)).toEqual(['"计" OR "登记" OR "gb" OR "g"', nothing]);
    expect(matchQueries([], COMPANIONS_FROM)).toEqual([nothing, nothing]);
  });

  it("makes companions of the question's own pairs only, never of a synonym's", () => {
    const nothing = '"zzzzzzzzzz" NOT "zzzzzzzzzz"';
    // The question 价 with the synonym 价格: its own character still finds chunks alone.
    expect(matchQueries(["价", "价格"], COMPANIONS_FROM, 1)).toEqual(['"价" OR "价格"', nothing]);
    expect(matchQueries(["价", "价格"], COMPANIONS_FROM, 2)).toEqual(['("价格") AND ("价")', '("价格") NOT ("价")']);
  });
});

describe("the same rules in SQL", () => {
  const LARGE = "fts_rule_large";
  const SMALL = "fts_rule_small";
  // 26,000 chunks: 30% is 7,800, so the 7,500 bound decides between t7500 and t7600; from 25,000 a
  // question's paired characters find no chunk alone.
  beforeAll(async () => {
    const rows = (table: string, count: number) =>
      env.DB.prepare(
        `INSERT INTO ${table} (rowid, terms)
         WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${count})
         SELECT i + 1, 'all' || CASE WHEN i < 7600 THEN ' t7600' ELSE '' END || CASE WHEN i < 7500 THEN ' t7500' ELSE '' END
                || CASE WHEN i % 2 = 0 THEN ' half' ELSE '' END || CASE WHEN i = 5 THEN ' rare' ELSE '' END
                || CASE i % 7 WHEN 0 THEN ' 计 件 计件' WHEN 1 THEN ' 计 件' WHEN 2 THEN ' 件' ELSE '' END FROM n`,
      );
    for (const table of [LARGE, SMALL]) {
      await env.DB.batch([
        env.DB.prepare(`CREATE VIRTUAL TABLE ${table} USING fts5(terms)`),
        env.DB.prepare(`CREATE VIRTUAL TABLE ${table}_vocab USING fts5vocab(${table}, 'row')`),
      ]);
    }
    await env.DB.batch([rows(LARGE, 26_000), rows(SMALL, 500)]);
  });

  const both = async (table: string, wanted: string[], keptTerms: string[] = [], own = wanted.length) => {
    const counts = await env.DB.prepare(`SELECT term, doc FROM ${table}_vocab WHERE term IN (SELECT value FROM json_each(?1))`)
      .bind(JSON.stringify(wanted))
      .all<{ term: string; doc: number }>();
    const df = new Map(counts.results.map((r) => [r.term, r.doc]));
    const total = (await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}_docsize`).first<{ n: number }>())?.n as number;
    const kept = keptTerms.map((t) => [t, df.get(t) ?? 0]);
    const sql = await env.DB.prepare(matchQueriesSql(table, { wanted: "?1", own: "?4", counting: "?2", kept: "?3" }))
      .bind(JSON.stringify(wanted), JSON.stringify(wanted.filter((t) => !keptTerms.includes(t))), JSON.stringify(kept), own)
      .first<{ first: string; second: string; counts: string }>();
    // What it counted is reported as the vocabulary gives it: the terms not kept that are in the index.
    const counted = wanted.filter((t) => !keptTerms.includes(t) && df.has(t)).map((t) => [t, df.get(t)]);
    expect(new Map(JSON.parse(sql?.counts ?? "[]"))).toEqual(new Map(counted as [string, number][]));
    const terms = matchedTerms(wanted, { df, total });
    const ownMatched = terms.filter((t) => wanted.indexOf(t) < own).length;
    return { sql: sql && [sql.first, sql.second], typescript: matchQueries(terms, total, ownMatched), terms };
  };

  it("chooses the terms TypeScript chooses, from counts it reads or is given", async () => {
    const cases: [string, string[], string[]?, number?][] = [
      [LARGE, ["all", "t7600", "t7500", "rare", "absent"]],
      [LARGE, ["rare", "t7500", "t7600", "all"], ["t7600", "all"]],
      [LARGE, ["all", "half", "t7600"]],
      [LARGE, ["half", "absent", "all"], ["all", "absent"]],
      [SMALL, ["all", "half", "rare", "absent"]],
      [LARGE, ["计", "件", "计件", "rare"], ["件"]],
      [LARGE, ["计", "计件"]],
      [LARGE, ["计", "件", "登记"]],
      [SMALL, ["计", "件", "计件"]],
      [LARGE, ["计", "rare", "计件"], [], 2],
    ];
    const chosen = [];
    for (const [table, wanted, kept, own] of cases) {
      const { sql, typescript, terms } = await both(table, wanted, kept, own);
      expect(sql).toEqual(typescript);
      chosen.push(terms);
    }
    expect(chosen).toEqual([
      ["t7500", "rare"],
      ["rare", "t7500"],
      ["all", "half", "t7600"],
      ["half", "all"],
      ["all", "half", "rare"],
      ["计", "计件", "rare"],
      ["计", "计件"],
      ["计"],
      ["计", "件", "计件"],
      ["计", "rare", "计件"],
    ]);
    // A synonym's pair (after the question's own two terms) makes no companion of the question's 计.
    expect((await both(LARGE, ["计", "rare", "计件"], [], 2)).sql).toEqual([
      '"计" OR "rare" OR "计件"',
      '"zzzzzzzzzz" NOT "zzzzzzzzzz"',
    ]);
  });

  it("finds by two queries every chunk holding a pair or another word, with the scores one query for all gives", async () => {
    const [first, second] = matchQueries(["计", "件", "计件", "rare"], 26_000);
    const ranked = (sql: string, ...queries: string[]) =>
      env.DB.prepare(sql)
        .bind(...queries)
        .all<{ rowid: number; bm25: number }>()
        .then((r) => r.results);
    const both = await ranked(
      `SELECT rowid, bm25(${LARGE}) AS bm25 FROM ${LARGE} WHERE ${LARGE} MATCH ?1
       UNION ALL SELECT rowid, bm25(${LARGE}) AS bm25 FROM ${LARGE} WHERE ${LARGE} MATCH ?2 ORDER BY rowid`,
      first,
      second,
    );
    const one = await ranked(
      `SELECT rowid, bm25(${LARGE}) AS bm25 FROM ${LARGE} WHERE ${LARGE} MATCH ?1 ORDER BY rowid`,
      '"计" OR "件" OR "计件" OR "rare"',
    );
    // A seventh of the rows hold 计件, and one row rare; two sevenths hold only 计件's characters.
    const anchored = one.filter((r) => (r.rowid - 1) % 7 === 0 || r.rowid === 6);
    expect(both.map((r) => r.rowid)).toEqual(anchored.map((r) => r.rowid));
    expect(anchored.length).toBeGreaterThan(3_700);
    for (const [i, row] of both.entries()) expect(row.bm25).toBeCloseTo((anchored[i] as { bm25: number }).bm25, 12);
  });

  it("gives a query that matches nothing when no term is in the index", async () => {
    const { sql, terms } = await both(LARGE, ["absent", "missing"]);
    expect(terms).toEqual([]);
    for (const query of sql ?? []) {
      const rows = await env.DB.prepare(`SELECT rowid FROM ${LARGE} WHERE ${LARGE} MATCH ?1`).bind(query).all();
      expect(rows.results).toEqual([]);
    }
  });
});
