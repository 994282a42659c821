// Written by scripts/fit-calibration.ts. The local models are fitted on the dev sets in ../shared/eval.
// The Workers AI ones could not be fitted offline: bge-reranker's logit is taken as its own
// probability (σ(logit)), and bge-m3's cosine (alone or in hybrid) gets a prior centred at 0.5;
// neither reads the distance to the query's best result.
import type { ScoreModel } from "./calibration.ts";

type ByBackend = Record<"local" | "workers-ai", ScoreModel>;

export const CALIBRATION: { keyword: ScoreModel; vector: ByBackend; hybrid: ByBackend; rerank: ByBackend } = {
  keyword: { input: "score", intercept: -3.5832, slope: 10.7738, belowBest: 11.2185 },
  vector: {
    local: { input: "score", intercept: -1.8007, slope: 12.2027, belowBest: 3.8288 },
    "workers-ai": { input: "score", intercept: -5, slope: 10, belowBest: 0 },
  },
  hybrid: {
    local: { input: "score", intercept: -3.8254, slope: 12.8324, belowBest: 9.4967 },
    "workers-ai": { input: "score", intercept: -5, slope: 10, belowBest: 0 },
  },
  rerank: {
    local: { input: "score", intercept: -4.2499, slope: 16.5495, belowBest: 8.5194 },
    "workers-ai": { input: "logit", intercept: 0, slope: 1, belowBest: 0 },
  },
};
