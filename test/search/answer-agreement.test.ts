import { describe, expect, it } from "vitest";
import { AnswerAgreement, type TermStatistics } from "../../src/search/answer-agreement.ts";
import { LocalReranker } from "../../src/search/local-reranker.ts";

const QUERY = "2022年冬奥会开幕式总导演是谁";
const ANSWERS = [
  "央视新闻消息，张艺谋担任北京冬奥会开幕式总导演。",
  "张艺谋再度执导，出任开闭幕式总导演，这是他第二次执导奥运会开幕式。",
  "据报道，总导演张艺谋表示开幕式将简约而精彩。",
];
const ASIDE = "开幕式演员正在鸟巢排练，门票将于下月开售。";

// As the keyword index would count them in a workshop of 100 chunks: the answer is rare, the
// event's words are everywhere.
function statistics(documents = 100): TermStatistics {
  const frequency = new Map<string, number>([
    ["张艺", 3],
    ["艺谋", 3],
    ["鸟巢", 2],
    ["执导", 2],
  ]);
  return { documents, frequency: { get: (t: string) => frequency.get(t) ?? documents } as Map<string, number> };
}

const sources = (texts: string[]) => texts.map((text, i) => ({ text, source: `doc-${i}` }));

describe("answer agreement", () => {
  it("scores the passages that share an answer above an on-topic one that says something else", () => {
    const passages = sources([...ANSWERS, ASIDE]);
    const agreement = new AnswerAgreement(QUERY, passages, [0, 1, 2, 3]);
    expect(agreement.terms).toEqual(expect.arrayContaining(["张艺", "艺谋"]));
    const scores = agreement.scores(statistics());
    for (const answer of scores.slice(0, 3)) expect(answer).toBeGreaterThan(scores[3] as number);
    expect(scores[3]).toBe(0);
  });

  it("does not count the query's own words or words every chunk holds", () => {
    const passages = sources(["冬奥会开幕式总导演", "冬奥会开幕式总导演", "消息称将于下月开售", "消息称将于下月开售"]);
    const agreement = new AnswerAgreement(QUERY, passages, [0, 1, 2, 3]);
    expect(agreement.terms).not.toContain("开幕");
    expect(agreement.terms).not.toContain("导演");
    // "消息", "下月" … are shared but, by these statistics, in every chunk: they weigh nothing.
    expect(agreement.scores(statistics())).toEqual([0, 0, 0, 0]);
  });

  it("counts a term once per document: chunks of one document do not vote for each other", () => {
    const same = ANSWERS.map((text) => ({ text, source: "doc-same" }));
    expect(new AnswerAgreement(QUERY, same, [0, 1, 2]).terms).toEqual([]);
    expect(new AnswerAgreement(QUERY, same, [0, 1, 2]).scores(statistics())).toEqual([0, 0, 0]);
  });

  it("lets only the voters vote, and scores every passage against them", () => {
    const passages = sources([ASIDE, "开幕式演员在鸟巢排练", ...ANSWERS]);
    // The two aside passages vote; the answers do not, so 张艺谋 has no votes.
    const agreement = new AnswerAgreement(QUERY, passages, [0, 1]);
    expect(agreement.terms).toContain("鸟巢");
    expect(agreement.terms).not.toContain("张艺");
    const scores = agreement.scores(statistics());
    expect(scores[0]).toBeGreaterThan(0);
    expect(scores.slice(2)).toEqual([0, 0, 0]);
  });

  it("lifts the agreeing passages in the local reranker, which looks the terms up once", async () => {
    const lookups: string[][] = [];
    const candidates = [...ANSWERS, ASIDE].map((text, i) => ({ text, score: 0.5, source: `doc-${i}` }));
    const reranker = new LocalReranker();
    const without = await reranker.rerank(QUERY, candidates);
    const withAgreement = await reranker.rerank(QUERY, candidates, {
      termStatistics: async (terms) => {
        lookups.push(terms);
        return statistics();
      },
    });
    expect(lookups).toHaveLength(1);
    for (const [i, score] of withAgreement.entries()) {
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(1);
      if (i < 3) expect(score).toBeGreaterThan(without[i] as number);
    }
    expect(withAgreement[3]).toBe(without[3]);
    expect(Math.min(...withAgreement.slice(0, 3))).toBeGreaterThan(withAgreement[3] as number);
  });
});
