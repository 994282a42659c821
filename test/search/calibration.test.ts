import { describe, expect, it } from "vitest";
import { calibrateList, probability, type ScoreModel } from "../../src/search/calibration.ts";
import { CALIBRATION } from "../../src/search/calibration-constants.ts";
import { FEATURE_NAMES, type FeatureCandidate, type Features } from "../../src/search/relevance-features.ts";

const models: [string, ScoreModel][] = [
  ["keyword", CALIBRATION.keyword],
  ...(["vector", "hybrid", "rerank", "vectorRerank"] as const).flatMap((mode) =>
    (["local", "workers-ai"] as const).map((backend): [string, ScoreModel] => [`${mode}/${backend}`, CALIBRATION[mode][backend]]),
  ),
];
const fitted = models.filter(([name]) => name === "keyword" || name.endsWith("/local"));

const QUERY = "工资单确认后发现错了怎么办";
const ANSWER = "工资单确认后发现错了，请老板在工资页面撤回确认，改正计件记录后重新生成工资单。";
/** A list as a search would pass it: raw order, each chunk's keyword score its raw score. */
const list = (...items: [text: string, raw: number][]): FeatureCandidate[] =>
  items.map(([text, raw], i) => ({ text, source: `document ${i}`, raw, keyword: raw }));

describe("score calibration", () => {
  it.each(models)("%s maps any list into (0, 1)", (_, model) => {
    const lists = [
      list([ANSWER, 1]),
      list([ANSWER, 0], ["天气不错。", 0]),
      list(...Array.from({ length: 30 }, (_, i): [string, number] => [`${ANSWER} 第${i}段`, 1 - i / 30])),
    ];
    for (const candidates of lists) {
      for (const p of calibrateList(QUERY, candidates, model)) {
        expect(p).toBeGreaterThan(0);
        expect(p).toBeLessThan(1);
      }
    }
  });

  it.each(fitted)("%s gives a query that nothing matches no result at 0.5, and the passage that answers it one", (_, model) => {
    const unrelated = list(["裁床每天早上八点开工。", 0.02], ["仓库在二楼。", 0.01]);
    for (const p of calibrateList(QUERY, unrelated, model)) expect(p).toBeLessThan(0.5);
    const answered = list([ANSWER, 0.9], ["裁床每天早上八点开工。", 0.05], ["仓库在二楼。", 0.02]);
    const [first, ...rest] = calibrateList(QUERY, answered, model);
    expect(first).toBeGreaterThan(0.5);
    for (const p of rest) expect(p).toBeLessThan(0.5);
  });

  it.each(fitted)("%s scores a list's sole match higher the higher its raw score", (_, model) => {
    let previous = -1;
    for (let raw = 0; raw <= 1; raw += 0.05) {
      const [p] = calibrateList(QUERY, list([ANSWER, raw]), model) as [number];
      expect(p).toBeGreaterThan(previous);
      previous = p;
    }
  });

  it.each(fitted)("%s scores a result lower the further it trails an otherwise equal best one", (_, model) => {
    const scores = [0.9, 0.8, 0.6, 0.3].map(
      (raw) => calibrateList(QUERY, list([ANSWER, 0.9], [`${ANSWER}。`, raw]), model)[1] as number,
    );
    for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThan(scores[i - 1] as number);
  });

  it("computes only the features a model weighs: the Workers AI priors read the raw score alone", () => {
    for (const backend of ["vector", "hybrid", "rerank", "vectorRerank"] as const) {
      expect(Object.keys(CALIBRATION[backend]["workers-ai"].weights)).toEqual(["raw"]);
    }
    // The same raw score scores the same, whatever the list around it.
    const model = CALIBRATION.hybrid["workers-ai"];
    const alone = calibrateList(QUERY, list([ANSWER, 0.6]), model)[0];
    const crowded = calibrateList(QUERY, list(["别的", 0.95], [ANSWER, 0.6], ["别的", 0.9]), model)[1];
    expect(crowded).toBe(alone);
  });

  it("takes bge-reranker's probability as it is: σ(logit) is the model's own calibration", () => {
    const features = (raw: number): Features => ({ ...zeroFeatures(), raw });
    for (const p of [0.01, 0.3, 0.5, 0.8, 0.99]) {
      expect(probability(features(p), CALIBRATION.rerank["workers-ai"])).toBeCloseTo(p, 6);
    }
  });

  it("weighs only features search computes, and no keyword score where vector search has none", () => {
    for (const [name, model] of models) {
      for (const feature of Object.keys(model.weights)) expect(FEATURE_NAMES, name).toContain(feature);
    }
    for (const model of [CALIBRATION.vector.local, CALIBRATION.vectorRerank.local])
      expect(model.weights).not.toHaveProperty("keyword");
  });
});

function zeroFeatures(): Features {
  return Object.fromEntries(FEATURE_NAMES.map((name) => [name, 0])) as Features;
}
