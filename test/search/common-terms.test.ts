import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { matchedTerms, matchedTermsSql } from "../../src/search/common-terms.ts";

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

describe("the same rule in SQL", () => {
  const LARGE = "fts_rule_large";
  const SMALL = "fts_rule_small";
  // 26,000 chunks: 30% is 7,800, so the 7,500 bound decides between t7500 and t7600.
  beforeAll(async () => {
    const rows = (table: string, count: number) =>
      env.DB.prepare(
        `INSERT INTO ${table} (rowid, terms)
         WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${count})
         SELECT i + 1, 'all' || CASE WHEN i < 7600 THEN ' t7600' ELSE '' END || CASE WHEN i < 7500 THEN ' t7500' ELSE '' END
                || CASE WHEN i % 2 = 0 THEN ' half' ELSE '' END || CASE WHEN i = 5 THEN ' rare' ELSE '' END FROM n`,
      );
    for (const table of [LARGE, SMALL]) {
      await env.DB.batch([
        env.DB.prepare(`CREATE VIRTUAL TABLE ${table} USING fts5(terms)`),
        env.DB.prepare(`CREATE VIRTUAL TABLE ${table}_vocab USING fts5vocab(${table}, 'row')`),
      ]);
    }
    await env.DB.batch([rows(LARGE, 26_000), rows(SMALL, 500)]);
  });

  const both = async (table: string, wanted: string[], keptTerms: string[] = []) => {
    const counts = await env.DB.prepare(`SELECT term, doc FROM ${table}_vocab WHERE term IN (SELECT value FROM json_each(?1))`)
      .bind(JSON.stringify(wanted))
      .all<{ term: string; doc: number }>();
    const df = new Map(counts.results.map((r) => [r.term, r.doc]));
    const total = (await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}_docsize`).first<{ n: number }>())?.n as number;
    const kept = keptTerms.map((t) => [t, df.get(t) ?? 0]);
    const sql = await env.DB.prepare(`SELECT ${matchedTermsSql(table, { wanted: "?1", counting: "?2", kept: "?3" })} AS query`)
      .bind(JSON.stringify(wanted), JSON.stringify(wanted.filter((t) => !keptTerms.includes(t))), JSON.stringify(kept))
      .first<{ query: string }>();
    const terms = matchedTerms(wanted, { df, total });
    return { sql: sql?.query, typescript: terms.map((t) => `"${t}"`).join(" OR "), terms };
  };

  it("chooses the terms TypeScript chooses, from counts it reads or is given", async () => {
    const cases: [string, string[], string[]?][] = [
      [LARGE, ["all", "t7600", "t7500", "rare", "absent"]],
      [LARGE, ["rare", "t7500", "t7600", "all"], ["t7600", "all"]],
      [LARGE, ["all", "half", "t7600"]],
      [LARGE, ["half", "absent", "all"], ["all", "absent"]],
      [SMALL, ["all", "half", "rare", "absent"]],
    ];
    const chosen = [];
    for (const [table, wanted, kept] of cases) {
      const { sql, typescript, terms } = await both(table, wanted, kept);
      expect(sql).toBe(typescript);
      chosen.push(terms);
    }
    expect(chosen).toEqual([
      ["t7500", "rare"],
      ["rare", "t7500"],
      ["all", "half", "t7600"],
      ["half", "all"],
      ["all", "half", "rare"],
    ]);
  });

  it("gives a query that matches nothing when no term is in the index", async () => {
    const { sql, terms } = await both(LARGE, ["absent", "missing"]);
    expect(terms).toEqual([]);
    const rows = await env.DB.prepare(`SELECT rowid FROM ${LARGE} WHERE ${LARGE} MATCH ?1`).bind(sql).all();
    expect(rows.results).toEqual([]);
  });
});
