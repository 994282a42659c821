import { describe, expect, it } from "vitest";
import { distinctiveTerms, foreseenTerms, sameMatch } from "../../src/search/common-terms.ts";

const statistics = (total: number, frequencies: Record<string, number>) => ({
  total,
  df: new Map(Object.entries(frequencies)),
});

describe("the terms a large keyword index is matched by", () => {
  it("leaves out a term in more than 30% of the chunks", () => {
    const terms = distinctiveTerms(["车间", "锅炉", "蒸汽"], statistics(10_000, { 车间: 3_001, 锅炉: 12, 蒸汽: 3_000 }));
    expect(terms).toEqual(["锅炉", "蒸汽"]);
  });

  it("leaves out a term in more than 7,500 chunks however large the index, so no term costs more to score", () => {
    const terms = distinctiveTerms(["记录", "编号", "锅炉"], statistics(50_000, { 记录: 7_501, 编号: 7_500, 锅炉: 40 }));
    expect(terms).toEqual(["编号", "锅炉"]);
  });

  it("matches every term present when all of them are common, and none that is absent", () => {
    const terms = distinctiveTerms(["记录", "编号", "锅炉"], statistics(50_000, { 记录: 20_000, 编号: 9_000 }));
    expect(terms).toEqual(["记录", "编号"]);
  });

  it("foresees the terms not counted yet as distinctive, in the question's order", () => {
    const known = statistics(50_000, { 车间: 30_000, 锅炉: 12, 记录: 0 });
    expect(foreseenTerms(["车间", "蒸汽", "锅炉", "记录", "阀门"], known)).toEqual(["蒸汽", "锅炉", "阀门"]);
  });

  it("takes the foreseen match for the counted one only when they differ by terms in no chunk", () => {
    const df = new Map([
      ["蒸汽", 3],
      ["锅炉", 12],
      ["阀门", 0],
      ["车间", 30_000],
    ]);
    expect(sameMatch(["蒸汽", "锅炉"], ["蒸汽", "锅炉", "阀门"], df)).toBe(true);
    expect(sameMatch(["锅炉"], ["蒸汽", "锅炉"], df)).toBe(false);
    expect(sameMatch(["蒸汽", "锅炉", "车间"], ["蒸汽", "锅炉"], df)).toBe(false);
    expect(sameMatch(["蒸汽", "锅炉"], null, df)).toBe(false);
  });
});
