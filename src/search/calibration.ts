// Scores with one meaning: each mode's raw signal mapped by a logistic model fitted on the dev sets
// (scripts/fit-calibration.ts writes calibration-constants.ts from `npm run eval -- --raw --dump`),
// so that a score estimates the chance that the passage answers the query and 0.5 is a threshold.

/**
 * p = σ(intercept + slope·x + belowBest·(x − best)), where x is the raw score (or its logit, for a
 * model that already outputs a probability) and best the raw score of the query's first result.
 * How far a passage trails the best one says much about whether it answers: on the dev sets where
 * one passage answers, 2.5 to 6 times fewer non-relevant results pass 0.5 than with the raw score
 * alone, and fewer on every set. The best result is scored by its own raw score alone
 * (x − best = 0), so a query whose best match is weak still gets no result at 0.5.
 */
export interface ScoreModel {
  input: "score" | "logit";
  intercept: number;
  slope: number;
  belowBest: number;
}

/** One model per kind of score a search can return. */
export interface Calibration {
  keyword: ScoreModel;
  vector: ScoreModel;
  hybrid: ScoreModel;
  rerank: ScoreModel;
}

const EPSILON = 1e-6;

/**
 * A raw score mapped into (0, 1), given the raw score of the query's best result. The fit keeps
 * `slope` and `slope + belowBest` positive, so within one query the map is increasing in the raw
 * score: it changes what a score means, never the order of results.
 */
export function calibrate(raw: number, best: number, model: ScoreModel): number {
  const x = input(raw, model);
  const gap = x - Math.max(x, input(best, model));
  return 1 / (1 + Math.exp(-(model.intercept + model.slope * x + model.belowBest * gap)));
}

function input(raw: number, model: ScoreModel): number {
  return model.input === "logit" ? Math.log(clamp(raw) / (1 - clamp(raw))) : raw;
}

function clamp(p: number): number {
  return Math.min(Math.max(p, EPSILON), 1 - EPSILON);
}
