// Written by scripts/fit-calibration.ts. The local models are fitted on the dev sets in ../shared/eval.
// The Workers AI ones could not be fitted offline: bge-reranker's logit is taken as its own
// probability (σ(logit)), and bge-m3's cosine (alone or in hybrid) gets a prior centred at 0.5.
import type { ScoreModel } from "./calibration.ts";

type ByBackend = Record<"local" | "workers-ai", ScoreModel>;

export const CALIBRATION: { keyword: ScoreModel; vector: ByBackend; hybrid: ByBackend; rerank: ByBackend } = {
  keyword: { input: "score", intercept: -4.8348, slope: 14.3495 },
  vector: {
    local: { input: "score", intercept: -1.8979, slope: 12.0586 },
    "workers-ai": { input: "score", intercept: -5, slope: 10 },
  },
  hybrid: {
    local: { input: "score", intercept: -4.9289, slope: 16.3217 },
    "workers-ai": { input: "score", intercept: -5, slope: 10 },
  },
  rerank: {
    local: { input: "score", intercept: -5.0572, slope: 19.2595 },
    "workers-ai": { input: "logit", intercept: 0, slope: 1 },
  },
};
