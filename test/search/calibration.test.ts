import { describe, expect, it } from "vitest";
import { calibrate, type ScoreModel } from "../../src/search/calibration.ts";
import { CALIBRATION } from "../../src/search/calibration-constants.ts";

const models: [string, ScoreModel][] = [
  ["keyword", CALIBRATION.keyword],
  ...(["vector", "hybrid", "rerank"] as const).flatMap((mode) =>
    (["local", "workers-ai"] as const).map((backend): [string, ScoreModel] => [`${mode}/${backend}`, CALIBRATION[mode][backend]]),
  ),
];
const fitted = models.filter(([name]) => name === "keyword" || name.endsWith("/local"));
const BESTS = [0, 0.05, 0.2, 0.5, 0.8, 1];

describe("score calibration", () => {
  it.each(models)("%s maps [0, 1] into [0, 1], increasing within a query, so it never reorders results", (_, model) => {
    for (const best of BESTS) {
      let previous = -1;
      for (let i = 0; i <= 1000 * best; i++) {
        const p = calibrate(i / 1000, best, model);
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThanOrEqual(1);
        expect(p).toBeGreaterThan(previous);
        previous = p;
      }
    }
  });

  it.each(models)("%s scores a query's best result by its own raw score, increasing in it", (_, model) => {
    let previous = -1;
    for (let i = 0; i <= 1000; i++) {
      const p = calibrate(i / 1000, i / 1000, model);
      expect(p).toBeGreaterThan(previous);
      previous = p;
    }
  });

  it("lets a query that nothing answers well get no result at 0.5, and a strong best result pass, in every fitted local model", () => {
    for (const [name, model] of fitted) {
      expect(calibrate(0, 0, model), name).toBeLessThan(0.5);
      expect(calibrate(1, 1, model), name).toBeGreaterThan(0.5);
    }
  });

  it("reads a raw score above the stated best as the best itself", () => {
    for (const [name, model] of models) expect(calibrate(0.7, 0.4, model), name).toBe(calibrate(0.7, 0.7, model));
  });

  it("takes bge-reranker's probability as it is: σ(logit) is the model's own calibration, wherever the best result is", () => {
    for (const p of [0.01, 0.3, 0.5, 0.8, 0.99]) {
      expect(calibrate(p, p, CALIBRATION.rerank["workers-ai"])).toBeCloseTo(p, 6);
      expect(calibrate(p, 0.999, CALIBRATION.rerank["workers-ai"])).toBeCloseTo(p, 6);
    }
  });
});
