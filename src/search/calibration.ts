// Scores with one meaning: each mode's raw signal mapped by a logistic model fitted on the dev sets
// (scripts/fit-calibration.ts writes calibration-constants.ts from `npm run eval -- --raw --dump`),
// so that a score estimates the chance that the passage answers the query and 0.5 is a threshold.

/**
 * p = σ(intercept + slope·x), where x is the raw score, or its logit for a model that already
 * outputs a probability. Only the passage's own score counts, never its rank among the others: a
 * query that nothing answers must be able to get no result above 0.5.
 */
export interface ScoreModel {
  input: "score" | "logit";
  intercept: number;
  slope: number;
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
 * A raw score mapped into (0, 1). The fit keeps the slope positive, so the map is increasing: it
 * changes what a score means, never the order of results.
 */
export function calibrate(raw: number, model: ScoreModel): number {
  const x = model.input === "logit" ? Math.log(clamp(raw) / (1 - clamp(raw))) : raw;
  return 1 / (1 + Math.exp(-(model.intercept + model.slope * x)));
}

function clamp(p: number): number {
  return Math.min(Math.max(p, EPSILON), 1 - EPSILON);
}
