// Written by scripts/fit-calibration.ts. The local models are fitted on the dev sets in ../shared/eval.
// The Workers AI ones could not be fitted offline: bge-reranker's logit is taken as its own
// probability (σ(logit)), and bge-m3's cosine (alone or in hybrid) gets a prior centred at 0.5.
import type { ScoreModel } from "./calibration.ts";

type ByBackend = Record<"local" | "workers-ai", ScoreModel>;

export const CALIBRATION: { keyword: ScoreModel; vector: ByBackend; hybrid: ByBackend; rerank: ByBackend } = {
  keyword: {
    input: "score",
    intercept: -3.2006,
    weights: {
      raw: 7.5922,
      belowBest: 9.5839,
      headMean: -10.0231,
      agreement: -1.064,
      consensus: 1.0008,
      coverageBelowBest: -0.2425,
      phrase: 8.4573,
    },
  },
  vector: {
    local: {
      input: "score",
      intercept: -1.9254,
      weights: {
        raw: 6.1016,
        belowBest: -3.7335,
        headMean: -17.5505,
        agreement: -0.0935,
        consensus: 0.4095,
        coverageBelowBest: 5.2246,
        phrase: 16.745,
      },
    },
    "workers-ai": { input: "score", intercept: -5, weights: { raw: 10 } },
  },
  hybrid: {
    local: {
      input: "score",
      intercept: -3.43,
      weights: {
        raw: -1.2546,
        belowBest: 8.0077,
        headMean: -10.572,
        agreement: -0.9344,
        consensus: 0.9567,
        coverageBelowBest: 0.5887,
        phrase: 8.6883,
        keyword: 8.9439,
      },
    },
    "workers-ai": { input: "score", intercept: -5, weights: { raw: 10 } },
  },
  rerank: {
    local: {
      input: "score",
      intercept: -3.9232,
      weights: {
        raw: 10.4478,
        belowBest: 5.9464,
        headMean: -10.2731,
        agreement: -0.9201,
        consensus: 0.8639,
        coverageBelowBest: 1.0718,
        keyword: 6.4684,
      },
    },
    "workers-ai": { input: "logit", intercept: 0, weights: { raw: 1 } },
  },
};
