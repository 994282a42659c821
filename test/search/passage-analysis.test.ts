import { describe, expect, it } from "vitest";
import { statedFacts } from "../../src/search/answer-shape.ts";
import { analysePassage } from "../../src/search/passage-analysis.ts";
import { tokensOf } from "../../src/search/units.ts";

describe("a passage's analysis, kept per isolate", () => {
  it("is the passage's tokens and stated facts, the same whether kept or made afresh", () => {
    const text = "5月6日下午，车间登记了12人的计件。";
    const first = analysePassage(text);
    expect(first).toEqual({ tokens: tokensOf(text), facts: statedFacts(text) });
    expect(first.facts).toEqual({ quantity: 1, moment: 1 });
    expect(analysePassage(text)).toBe(first);
  });

  it("is keyed by the text itself, so a changed passage is analysed again", () => {
    const before = analysePassage("裁床每层布料铺十层。");
    const after = analysePassage("裁床每层布料铺二十层，共3人。");
    expect(after).not.toBe(before);
    expect(after.facts.quantity).toBe(1);
    expect(before.facts.quantity).toBe(0);
  });
});
