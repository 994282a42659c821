import { describe, expect, it } from "vitest";
import { calibrate, type ScoreModel } from "../../src/search/calibration.ts";
import { CALIBRATION } from "../../src/search/calibration-constants.ts";

const models: [string, ScoreModel][] = [
  ["keyword", CALIBRATION.keyword],
  ...(["vector", "hybrid", "rerank"] as const).flatMap((mode) =>
    (["local", "workers-ai"] as const).map((backend): [string, ScoreModel] => [`${mode}/${backend}`, CALIBRATION[mode][backend]]),
  ),
];

describe("score calibration", () => {
  it.each(models)("%s maps [0, 1] into [0, 1], increasing, so it never reorders results", (_, model) => {
    let previous = -1;
    for (let i = 0; i <= 1000; i++) {
      const p = calibrate(i / 1000, model);
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThanOrEqual(1);
      expect(p).toBeGreaterThan(previous);
      previous = p;
    }
  });

  it("puts WeKnora's 0.5 threshold inside the range of raw scores of every fitted local model", () => {
    for (const [name, model] of models.filter(([n]) => n === "keyword" || n.endsWith("/local"))) {
      expect(calibrate(0, model), name).toBeLessThan(0.5);
      expect(calibrate(1, model), name).toBeGreaterThan(0.5);
    }
  });

  it("takes bge-reranker's probability as it is: σ(logit) is the model's own calibration", () => {
    for (const p of [0.01, 0.3, 0.5, 0.8, 0.99]) expect(calibrate(p, CALIBRATION.rerank["workers-ai"])).toBeCloseTo(p, 6);
  });
});
