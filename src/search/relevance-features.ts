// What the score calibration reads of a result: its raw score, where that stands in its list, and
// lexical evidence that it answers the query rather than sharing its topic. Pure functions of the
// query and the candidate list, so scripts/fit-calibration.ts computes exactly what search serves.
import { localRerankScorer } from "./local-reranker.ts";
import { analysePassage } from "./passage-analysis.ts";
import { queryUnits, sentenceFinder } from "./query-sentence.ts";
import { normaliseText } from "./segment.ts";
import { forEachUnit, type Tokens, type UnitKey, unitKey } from "./units.ts";

export const FEATURE_NAMES = [
  "raw",
  "belowBest",
  "headMean",
  "agreement",
  "consensus",
  "coverageBelowBest",
  "echo",
  "quantity",
  "moment",
  "phrase",
  "keyword",
  "keywordBelowBest",
] as const;

/**
 * - `raw`: the mode's own score (keyword, cosine, their mean, or the reranker's).
 * - `belowBest`: how far it trails the list's best raw score (≤ 0).
 * - `headMean`: the sum of the list's first ten raw scores over ten, the same for the whole list: a
 *   crowded list of near-equal matches needs more than a high score to tell what answers.
 * - `agreement`: ln(1 + the strongest support of a word of its answer sentence): for each word of
 *   the sentence holding the query's words (`querySentence`) that the query lacks, how many other
 *   documents among the first ten results hold it in their answer sentence too, times its rarity
 *   among the candidates.
 *   Passages that answer tend to give the same answer (a name, a date, an amount); on-topic
 *   passages that do not each say something else.
 * - `consensus`: `agreement` times the strongest agreement among the first ten: disagreeing with a
 *   list that agrees on something says more than disagreeing with a list that agrees on nothing.
 * - `coverageBelowBest`: the share of the query's words it holds, weighted by their rarity among
 *   the candidates, less the best such share among the first ten: a passage missing the query's
 *   rarest word (a name, a title) rarely answers, whatever its other words.
 * - `echo`: how closely other documents among the first ten restate its answer sentence
 *   (`echoes`): where `agreement` asks whether one word of the answer recurs, this asks whether
 *   the statement does.
 * - `quantity`, `moment`: whether it states a number with what it counts, or a day or a time of
 *   day (`statedFacts`), 0 or 1. Read from the whole passage: from its answer sentence alone they
 *   passed 3.3 points more of rgb-zh-dev's non-relevant results in keyword mode, 0.3 in hybrid.
 * - `phrase`: the local reranker's score for it (`localRerankScore`), for the modes that do not
 *   rerank: phrase, number and answer-position matching.
 * - `keyword`: its keyword score, 0 when keyword search did not find it.
 * - `keywordBelowBest`: how far its keyword score trails the list's best one (≤ 0): in a hybrid
 *   list, where it stands among the keyword matches as well as by the blended score.
 */
export type Features = Record<(typeof FEATURE_NAMES)[number], number>;
export type FeatureName = keyof Features;

export interface FeatureCandidate {
  /** The text it was indexed and reranked by. */
  text: string;
  /** The document it comes from: chunks of one document do not count as agreeing with each other. */
  source: string;
  raw: number;
  keyword: number;
}

/** The list's first results, over which list features are taken: what a client sees first. */
export const HEAD = 10;

/**
 * Features of every candidate of one query's list, given in raw-score order (best first). Only the
 * features named in `wanted` are computed (the others are 0): the answer sentences and the phrase
 * match cost a pass over each passage. Linear in the candidates' text.
 */
export function relevanceFeatures(
  query: string,
  candidates: FeatureCandidate[],
  wanted: ReadonlySet<FeatureName>,
  canonical: (text: string) => string = (t) => t,
): Features[] {
  const head = candidates.slice(0, HEAD);
  const best = candidates[0]?.raw ?? 0;
  const bestKeyword = candidates.reduce((max, c) => Math.max(max, c.keyword), 0);
  // Over ten places whatever the list's length: two matches are not a crowd.
  const headMean = head.reduce((sum, c) => sum + c.raw, 0) / HEAD;
  const lexical = LEXICAL.some((name) => wanted.has(name));
  const evidence = lexical ? lexicalEvidence(query, candidates, wanted, canonical) : undefined;
  const phrase = wanted.has("phrase") ? localRerankScorer(query, canonical) : undefined;
  return candidates.map((c, i) => ({
    raw: c.raw,
    belowBest: c.raw - best,
    headMean,
    agreement: evidence?.agreement[i] ?? 0,
    consensus: (evidence?.agreement[i] ?? 0) * (evidence?.headAgreement ?? 0),
    coverageBelowBest: evidence ? (evidence.coverage[i] as number) - evidence.headCoverage : 0,
    echo: evidence?.echo[i] ?? 0,
    quantity: evidence?.facts[i]?.quantity ?? 0,
    moment: evidence?.facts[i]?.moment ?? 0,
    phrase: phrase ? phrase({ text: c.text, score: c.raw }) : 0,
    keyword: c.keyword,
    keywordBelowBest: c.keyword - bestKeyword,
  }));
}

/** The features read from the passages' words rather than from the scores. */
const LEXICAL: FeatureName[] = ["agreement", "consensus", "coverageBelowBest", "echo", "quantity", "moment"];

interface Evidence {
  /** ln(1 + support) per candidate. */
  agreement: number[];
  headAgreement: number;
  coverage: number[];
  headCoverage: number;
  echo: number[];
  facts: { quantity: number; moment: number }[];
}

function lexicalEvidence(
  query: string,
  candidates: FeatureCandidate[],
  wanted: ReadonlySet<FeatureName>,
  canonical: (text: string) => string,
): Evidence {
  const asked = queryUnits(query, canonical);
  const answerSentence = sentenceFinder(asked);
  const texts = candidates.map((c) => canonical(normaliseText(c.text)));
  // Each passage is scanned once; its answer sentence and the words it holds are read from the tokens.
  const analyses = texts.map(analysePassage);
  const tokens = analyses.map((a) => a.tokens);
  const facts = wanted.has("quantity") || wanted.has("moment") ? analyses.map((a) => a.facts) : [];

  // How many candidates hold each unit that can count: the query's and the answer sentences'. A
  // word every candidate holds is the topic, not an answer, so rarity among the candidates weighs it.
  const slots = new Map<UnitKey, number>();
  const slotOf = (key: UnitKey) => {
    if (!slots.has(key)) slots.set(key, slots.size);
    return slots.get(key) as number;
  };
  const askedKeys = [...asked].map(unitKey);
  const askedSlots = askedKeys.map(slotOf);
  const skipped = new Set(askedKeys);
  // The words of each answer sentence that the query lacks.
  const answerSlots =
    wanted.has("agreement") || wanted.has("consensus") || wanted.has("echo")
      ? texts.map((text, i) => {
          const own = tokens[i] as Tokens;
          const { from, to } = answerSentence(text, own).tokens;
          const sentence = new Set<number>();
          forEachUnit(own, from, to, (key) => {
            if (!skipped.has(key)) sentence.add(slotOf(key));
          });
          return sentence;
        })
      : [];
  const frequency = new Int32Array(slots.size);
  const lastSeen = new Int32Array(slots.size).fill(-1);
  const held = tokens.map((own, i) => {
    const slotsHeld: number[] = [];
    const hold = (key: UnitKey) => {
      const slot = slots.get(key);
      if (slot === undefined || lastSeen[slot] === i) return;
      lastSeen[slot] = i;
      frequency[slot] = (frequency[slot] as number) + 1;
      slotsHeld.push(slot);
    };
    forEachUnit(own, 0, own.count, hold, true);
    return new Set(slotsHeld);
  });
  const rarity = (slot: number) => Math.log((candidates.length + 1) / ((frequency[slot] as number) + 0.5));

  const askedWeight = askedSlots.reduce((sum, slot) => sum + rarity(slot), 0);
  const coverage = held.map((own) => {
    const weight = askedSlots.reduce((sum, slot) => sum + (own.has(slot) ? rarity(slot) : 0), 0);
    return askedWeight > 0 ? weight / askedWeight : 0;
  });

  // Which documents among the first ten hold each word in an answer sentence.
  const inHead = new Map<number, Set<string>>();
  answerSlots.slice(0, HEAD).forEach((set, j) => {
    for (const slot of set) {
      if (!inHead.has(slot)) inHead.set(slot, new Set());
      inHead.get(slot)?.add((candidates[j] as FeatureCandidate).source);
    }
  });
  const agreement = candidates.map((c, i) => {
    let strongest = 0;
    for (const slot of answerSlots[i] ?? []) {
      const sources = inHead.get(slot);
      const others = sources ? sources.size - (sources.has(c.source) ? 1 : 0) : 0;
      if (others > 0) strongest = Math.max(strongest, others * rarity(slot));
    }
    return Math.log1p(strongest);
  });
  const echo = wanted.has("echo") ? echoes(candidates, answerSlots, rarity) : [];
  const headOf = (values: number[]) => Math.max(0, ...values.slice(0, HEAD));
  return { agreement, headAgreement: headOf(agreement), coverage, headCoverage: headOf(coverage), echo, facts };
}

/**
 * How many of the closest other documents an echo is averaged over: one restatement may be chance.
 * In vector mode 1, 2, 3 and 5 passed 49.9%, 48.7%, 49.4% and 48.7% of rgb-zh-dev's non-relevant
 * results, and keyword mode's rgb-zh-dev nDCG@10 was 0.815 to 0.819 with it: the choice hardly matters.
 */
const ECHOES = 3;

/**
 * Per candidate, how closely other documents among the first ten restate its answer sentence, 0
 * to 1: the words two answer sentences share (those the query lacks), weighted by their rarity
 * among the candidates, over the weight of the smaller sentence; a document counts by its closest
 * chunk, and the ECHOES closest documents are averaged. On-topic passages share a name or a
 * place with each other; passages that answer share the statement.
 */
function echoes(candidates: FeatureCandidate[], answerSlots: Set<number>[], rarity: (slot: number) => number): number[] {
  const sentences = answerSlots.map((own) => {
    let weight = 0;
    for (const slot of own) weight += rarity(slot);
    return { own, weight };
  });
  return candidates.map((c, i) => {
    const mine = sentences[i] as { own: Set<number>; weight: number };
    const byDocument = new Map<string, number>();
    sentences.slice(0, HEAD).forEach((other, j) => {
      const source = (candidates[j] as FeatureCandidate).source;
      if (source === c.source) return;
      let shared = 0;
      for (const slot of mine.own) if (other.own.has(slot)) shared += rarity(slot);
      const smaller = Math.min(mine.weight, other.weight);
      const similarity = smaller > 0 ? shared / smaller : 0;
      byDocument.set(source, Math.max(byDocument.get(source) ?? 0, similarity));
    });
    const closest = [...byDocument.values()].sort((a, b) => b - a).slice(0, ECHOES);
    return closest.length > 0 ? closest.reduce((sum, v) => sum + v, 0) / closest.length : 0;
  });
}
