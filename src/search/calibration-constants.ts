// Written by scripts/fit-calibration.ts. The local models are fitted on the dev sets in ../shared/eval.
// The Workers AI ones could not be fitted offline: bge-reranker's logit is taken as its own
// probability (σ(logit)), and bge-m3's cosine (alone or in hybrid) gets a prior centred at 0.5.
import type { CalibrationTable } from "./calibration.ts";

export const CALIBRATION: CalibrationTable = {
  keyword: {
    input: "score",
    intercept: -3.3278,
    weights: {
      raw: 7.9497,
      belowBest: 9.9163,
      headMean: -11.1552,
      agreement: -1.0424,
      consensus: 0.8497,
      coverageBelowBest: -0.301,
      phrase: 8.4582,
      echo: 1.2958,
      quantity: 0.4728,
      moment: 0.9632,
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
      intercept: -3.3271,
      weights: {
        raw: 2.8633,
        belowBest: -2.147,
        headMean: -11.8762,
        agreement: -0.8752,
        consensus: 0.7706,
        coverageBelowBest: 0.0814,
        phrase: 8.7928,
        keyword: 5.0946,
        keywordBelowBest: 11.1656,
        echo: 1.2909,
        quantity: 0.428,
        moment: 0.9787,
      },
    },
    "workers-ai": { input: "score", intercept: -5, weights: { raw: 10 } },
  },
  rerank: {
    local: {
      input: "score",
      intercept: -3.7781,
      weights: {
        raw: 10.8344,
        belowBest: 6.2092,
        headMean: -11.2722,
        agreement: -0.8169,
        consensus: 0.6406,
        coverageBelowBest: 1.1019,
        keyword: 6.4166,
        echo: 1.5824,
        quantity: 0.1789,
        moment: 0.8292,
      },
    },
    "workers-ai": { input: "logit", intercept: 0, weights: { raw: 1 } },
  },
  vectorRerank: {
    local: {
      input: "score",
      intercept: -3.1348,
      weights: {
        raw: 17.9711,
        belowBest: 6.3311,
        headMean: -12.0129,
        agreement: -1.052,
        consensus: 0.7856,
        coverageBelowBest: 1.0984,
        echo: 1.3734,
        quantity: 0.3182,
        moment: 0.8303,
      },
    },
    "workers-ai": { input: "logit", intercept: 0, weights: { raw: 1 } },
  },
};
