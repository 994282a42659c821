// Written by scripts/fit-calibration.ts. The local models are fitted on the dev sets in ../shared/eval.
// The Workers AI ones could not be fitted offline: bge-reranker's logit is taken as its own
// probability (σ(logit)), and bge-m3's cosine (alone or in hybrid) gets a prior centred at 0.5.
import type { CalibrationTable } from "./calibration.ts";

export const CALIBRATION: CalibrationTable = {
  keyword: {
    input: "score",
    intercept: -3.173,
    weights: {
      raw: 7.5827,
      belowBest: 9.545,
      headMean: -10.108,
      agreement: -1.1213,
      consensus: 1.0259,
      coverageBelowBest: -0.2308,
      phrase: 8.5523,
    },
  },
  vector: {
    local: {
      input: "score",
      intercept: -1.7886,
      weights: {
        raw: 5.9027,
        belowBest: -4.064,
        headMean: -18.312,
        agreement: 0.195,
        consensus: 0.1057,
        coverageBelowBest: 5.1681,
        phrase: 17.0597,
        echo: 2.2157,
      },
    },
    "workers-ai": { input: "score", intercept: -5, weights: { raw: 10 } },
  },
  hybrid: {
    local: {
      input: "score",
      intercept: -3.389,
      weights: {
        raw: -1.5782,
        belowBest: 7.9258,
        headMean: -10.6725,
        agreement: -1.0074,
        consensus: 0.9886,
        coverageBelowBest: 0.6437,
        phrase: 8.8464,
        keyword: 9.1746,
      },
    },
    "workers-ai": { input: "score", intercept: -5, weights: { raw: 10 } },
  },
  rerank: {
    local: {
      input: "score",
      intercept: -3.8384,
      weights: {
        raw: 11.0548,
        belowBest: 5.9762,
        headMean: -10.6181,
        agreement: -0.9902,
        consensus: 0.8945,
        coverageBelowBest: 1.0409,
        keyword: 6.1429,
      },
    },
    "workers-ai": { input: "logit", intercept: 0, weights: { raw: 1 } },
  },
  vectorRerank: {
    local: {
      input: "score",
      intercept: -3.068,
      weights: {
        raw: 17.9328,
        belowBest: 6.1009,
        headMean: -11.3981,
        agreement: -1.2446,
        consensus: 1.0277,
        coverageBelowBest: 1.0237,
      },
    },
    "workers-ai": { input: "logit", intercept: 0, weights: { raw: 1 } },
  },
};
