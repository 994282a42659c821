// Written by scripts/fit-calibration.ts.
import type { ScoreModel } from "./calibration.ts";

type ByBackend = Record<"local" | "workers-ai", ScoreModel>;

export const CALIBRATION: { keyword: ScoreModel; vector: ByBackend; hybrid: ByBackend; rerank: ByBackend } = {
  keyword: { input: "score", intercept: -2, slope: 6 },
  vector: { local: { input: "score", intercept: -2, slope: 6 }, "workers-ai": { input: "score", intercept: -2, slope: 6 } },
  hybrid: { local: { input: "score", intercept: -2, slope: 6 }, "workers-ai": { input: "score", intercept: -2, slope: 6 } },
  rerank: { local: { input: "score", intercept: -2, slope: 6 }, "workers-ai": { input: "logit", intercept: 0, slope: 1 } },
};
