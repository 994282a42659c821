import { AnswerAgreement } from "./answer-agreement.ts";
import { answerShapeMatch, asksForShape, numberMatch } from "./answer-shape.ts";
import { querySentence } from "./query-sentence.ts";
import type { RerankCandidate, RerankContext, Reranker } from "./reranker.ts";
import { squash } from "./segment.ts";

/**
 * How much of the query the passage contains as verbatim phrases, from 0 to 1. The query is cut
 * greedily into the longest pieces (two characters or more) found in the passage; each piece
 * counts length^1.5, so one long shared phrase outweighs the same characters scattered about.
 * `canonical` rewrites both texts first (synonyms to one word); identity by default.
 */
export function phraseMatch(query: string, passage: string, canonical: (text: string) => string = (t) => t): number {
  const q = canonical(squash(query));
  const p = canonical(squash(passage));
  if (q.length === 0) return 0;
  let covered = 0;
  let i = 0;
  while (i < q.length) {
    let length = 0;
    while (i + length < q.length && p.includes(q.slice(i, i + length + 1))) length++;
    if (length >= 2) {
      covered += length ** 1.5;
      i += length;
    } else {
      i += 1;
    }
  }
  return covered / q.length ** 1.5;
}

// Weight of the answer-shape signal; the result is divided by 1 + it, to stay in [0, 1].
const SHAPE = 0.05;
// How much a passage can lose for lacking the kind of answer asked for beside the question's words.
const NEAR = 0.25;
// Weight of the agreement signal, and the agreement that counts as 1 − 1/e of it. Measured with
// `npm run eval` (README): rgb-zh-dev nDCG@10 rises by about 0.02, the other sets move by 0.001 or less.
const AGREE = 0.2;
const AGREE_SCALE = 3;

/**
 * For a question asking for a date or an amount: whether the passage has one in the sentence that
 * holds the question's words, weighted by how many of them that sentence holds (square root, so a
 * sentence with half the words still counts 0.7); 1 for other questions. On-topic passages that
 * mention the question's entities but not its answer have their dates and numbers elsewhere.
 */
export function answerNearQuery(query: string, passage: string, canonical?: (text: string) => string): number {
  if (!asksForShape(query)) return 1;
  const sentence = querySentence(query, passage, canonical);
  return answerShapeMatch(query, sentence.text) * Math.sqrt(sentence.coverage);
}

/**
 * The local reranker: half the first-stage score, half the phrase match, scaled down for a
 * passage missing the query's numbers and for one without the kind of answer asked for near the
 * question's words, plus a bonus when it holds that kind of answer anywhere; then, given the
 * keyword index's statistics, a share for how much the best passages agree with it on what the
 * query does not say (`AnswerAgreement`). Bag-of-words retrieval cannot tell "2021年中国电影市场总票房"
 * from the same words in another order or another year's sentence; phrase, number and
 * answer-position matching can, and agreement finds the passages that give the same answer.
 * Every signal is linear in the passages. Measured with `npm run eval` (see the README).
 */
export class LocalReranker implements Reranker {
  readonly model = "local-phrase-v4";

  async rerank(query: string, candidates: RerankCandidate[], context: RerankContext = {}): Promise<number[]> {
    const canonical = context.synonyms?.canonicaliserFor(query);
    const own = candidates.map((c) => {
      const lexical = 0.5 * c.score + 0.5 * phraseMatch(query, c.text, canonical);
      const numbers = 0.5 + 0.5 * numberMatch(query, c.text);
      const near = 1 - NEAR + NEAR * answerNearQuery(query, c.text, canonical);
      return (lexical * numbers * near + SHAPE * answerShapeMatch(query, c.text)) / (1 + SHAPE);
    });
    const agreed = context.termStatistics ? await agreementOf(query, candidates, own, context.termStatistics) : [];
    return own.map((score, i) => (score + AGREE * (1 - Math.exp(-(agreed[i] ?? 0) / AGREE_SCALE))) / (1 + AGREE));
  }
}

// The best passages by the other signals vote; agreement is looked up once for the whole list.
async function agreementOf(
  query: string,
  candidates: RerankCandidate[],
  own: number[],
  termStatistics: NonNullable<RerankContext["termStatistics"]>,
): Promise<number[]> {
  const voters = own.map((_, i) => i).sort((a, b) => (own[b] as number) - (own[a] as number));
  // A candidate without a source stands for itself.
  const passages = candidates.map((c, i) => ({ text: c.text, source: c.source ?? `#${i}` }));
  const agreement = new AnswerAgreement(query, passages, voters);
  return agreement.scores(await termStatistics(agreement.terms));
}
