// Written by scripts/fit-calibration.ts. The local models are fitted on the dev sets in ../shared/eval.
// The Workers AI ones could not be fitted offline: bge-reranker's logit is taken as its own
// probability (σ(logit)), and bge-m3's cosine (alone or in hybrid) gets a prior centred at 0.5.
import type { ScoreModel } from "./calibration.ts";

type ByBackend = Record<"local" | "workers-ai", ScoreModel>;

export const CALIBRATION: {
  keyword: ScoreModel;
  vector: ByBackend;
  hybrid: ByBackend;
  rerank: ByBackend;
  vectorRerank: ByBackend;
} = {
  keyword: {
    input: "score",
    intercept: -3.1407,
    weights: {
      raw: 7.6081,
      belowBest: 9.5738,
      headMean: -10.1067,
      agreement: -1.1204,
      consensus: 1.0253,
      coverageBelowBest: -0.2449,
      phrase: 8.4613,
    },
  },
  vector: {
    local: {
      input: "score",
      intercept: -1.9228,
      weights: {
        raw: 6.1258,
        belowBest: -3.7283,
        headMean: -17.5366,
        agreement: -0.1249,
        consensus: 0.4233,
        coverageBelowBest: 5.2489,
        phrase: 16.7228,
      },
    },
    "workers-ai": { input: "score", intercept: -5, weights: { raw: 10 } },
  },
  hybrid: {
    local: {
      input: "score",
      intercept: -3.3787,
      weights: {
        raw: -1.2975,
        belowBest: 7.9136,
        headMean: -10.6523,
        agreement: -1.0038,
        consensus: 0.9859,
        coverageBelowBest: 0.6445,
        phrase: 8.6837,
        keyword: 8.9957,
      },
    },
    "workers-ai": { input: "score", intercept: -5, weights: { raw: 10 } },
  },
  rerank: {
    local: {
      input: "score",
      intercept: -3.8283,
      weights: {
        raw: 10.4301,
        belowBest: 5.9845,
        headMean: -10.3248,
        agreement: -0.9458,
        consensus: 0.8734,
        coverageBelowBest: 1.0403,
        keyword: 6.4586,
      },
    },
    "workers-ai": { input: "logit", intercept: 0, weights: { raw: 1 } },
  },
  vectorRerank: {
    local: {
      input: "score",
      intercept: -3.0242,
      weights: {
        raw: 17.6782,
        belowBest: 5.928,
        headMean: -11.1404,
        agreement: -1.2043,
        consensus: 1.0071,
        coverageBelowBest: 1.0601,
      },
    },
    "workers-ai": { input: "logit", intercept: 0, weights: { raw: 1 } },
  },
};
