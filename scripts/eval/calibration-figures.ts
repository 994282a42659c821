// How well scores work as a threshold: the figures `npm run eval` prints beside nDCG.

/** One judged result: its score and whether the set's qrels call it relevant. */
export interface Judged {
  score: number;
  relevant: boolean;
}

/**
 * Share of relevant and of non-relevant results scoring at least `threshold`, and the AUC of the
 * score as a relevance predictor (the chance that a random relevant result outscores a random
 * non-relevant one, ties counting half), pooled over all queries as one global threshold would be.
 */
export function calibrationFigures(judged: Judged[], threshold = 0.5) {
  const rel = judged.filter((j) => j.relevant).map((j) => j.score);
  const non = judged.filter((j) => !j.relevant).map((j) => j.score);
  const share = (xs: number[]) => (xs.length ? xs.filter((x) => x >= threshold).length / xs.length : 0);
  return { relevantKept: share(rel), nonRelevantKept: share(non), auc: auc(rel, non) };
}

/** Mann-Whitney AUC in O(n log n): ranks of the pooled scores, ties given their mean rank. */
export function auc(positives: number[], negatives: number[]): number {
  if (positives.length === 0 || negatives.length === 0) return 0.5;
  const all = [...positives.map((s) => ({ s, p: true })), ...negatives.map((s) => ({ s, p: false }))];
  all.sort((a, b) => a.s - b.s);
  let rankSum = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j]?.s === all[i]?.s) j++;
    const meanRank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) if (all[k]?.p) rankSum += meanRank;
    i = j;
  }
  const np = positives.length;
  return (rankSum - (np * (np + 1)) / 2) / (np * negatives.length);
}
