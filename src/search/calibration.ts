// Scores with one meaning: a logistic model of each result's features (relevance-features.ts),
// fitted per mode on the dev sets (scripts/fit-calibration.ts writes calibration-constants.ts from
// `npm run eval -- --raw --dump FILE`), so that a score estimates the chance that the passage
// answers the query and 0.5 is a threshold in every mode.
import { type FeatureCandidate, type FeatureName, type Features, relevanceFeatures } from "./relevance-features.ts";

/**
 * p = σ(intercept + Σ weight · feature), where the `raw` feature is the raw score, or its logit
 * for a model that already outputs a probability (bge-reranker). Features without a weight are
 * not computed.
 */
export interface ScoreModel {
  input: "score" | "logit";
  intercept: number;
  weights: Partial<Record<FeatureName, number>>;
}

/**
 * One model per kind of score a search can return. Reranked keyword and hybrid searches share
 * `rerank`; a reranked vector search has no keyword scores, so it has a model that reads none.
 */
export interface Calibration {
  keyword: ScoreModel;
  vector: ScoreModel;
  hybrid: ScoreModel;
  rerank: ScoreModel;
  vectorRerank: ScoreModel;
}

/**
 * The fitted constants (calibration-constants.ts): the keyword model, and for every other kind of
 * score one model per backend, as bge-m3 and bge-reranker score on scales of their own.
 */
export type CalibrationTable = { keyword: ScoreModel } & {
  [K in Exclude<keyof Calibration, "keyword">]: Record<"local" | "workers-ai", ScoreModel>;
};

const EPSILON = 1e-6;

/**
 * The calibrated score of every candidate of one query's list, given in raw-score order. The
 * scores are not in that order: evidence beyond the raw score (whether the passage gives the
 * answer other results give, whether it holds the query's rarest words) moves results, so search
 * sorts by the calibrated score.
 */
export function calibrateList(
  query: string,
  candidates: FeatureCandidate[],
  model: ScoreModel,
  canonical?: (text: string) => string,
): number[] {
  const wanted = new Set(Object.keys(model.weights) as FeatureName[]);
  return relevanceFeatures(query, candidates, wanted, canonical).map((features) => probability(features, model));
}

/** σ of the model's linear score for one result's features. */
export function probability(features: Features, model: ScoreModel): number {
  let z = model.intercept;
  for (const [name, weight] of Object.entries(model.weights) as [FeatureName, number][]) {
    const value = name === "raw" && model.input === "logit" ? logit(features.raw) : features[name];
    z += weight * value;
  }
  return 1 / (1 + Math.exp(-z));
}

function logit(p: number): number {
  const q = Math.min(Math.max(p, EPSILON), 1 - EPSILON);
  return Math.log(q / (1 - q));
}
