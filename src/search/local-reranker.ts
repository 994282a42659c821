import { answerShapeTest, asksForShape, numberTest } from "./answer-shape.ts";
import { queryUnits, sentenceFinder } from "./query-sentence.ts";
import type { RerankCandidate, Reranker } from "./reranker.ts";
import { askingMask, normaliseText, squash } from "./segment.ts";
import type { Synonyms } from "./synonyms.ts";

/**
 * How much of the query the passage contains as verbatim phrases, from 0 to 1. The query is cut
 * greedily into the longest pieces (two characters or more) found in the passage; each piece
 * counts length^1.5, so one long shared phrase outweighs the same characters scattered about.
 * Words that ask (`askingMask`) at either end of a piece do not count: a passage quoting the
 * question ("例如“怎么新建订单”") is no better than the one that answers it, while a heading
 * phrased as the question ("计件工资怎么算") holds them inside and matches it as one phrase.
 * `canonical` rewrites both texts first (synonyms to one word); identity by default.
 */
export function phraseMatch(query: string, passage: string, canonical: (text: string) => string = (t) => t): number {
  return phraseMatcher(query, canonical)(passage);
}

/** `phraseMatch` for one query, read once, over any number of passages. */
export function phraseMatcher(query: string, canonical: (text: string) => string = (t) => t): (passage: string) => number {
  const q = canonical(squash(query));
  if (q.length === 0) return () => 0;
  const asking = askingMask(q);
  return (passage) => {
    const p = canonical(squash(passage));
    let covered = 0;
    let i = 0;
    while (i < q.length) {
      let length = 0;
      while (i + length < q.length && p.includes(q.slice(i, i + length + 1))) length++;
      if (length >= 2) {
        let from = i;
        let to = i + length;
        while (from < to && asking[from] === 1) from++;
        while (to > from && asking[to - 1] === 1) to--;
        covered += (to - from) ** 1.5;
        i += length;
      } else {
        i += 1;
      }
    }
    return covered / q.length ** 1.5;
  };
}

// Weight of the answer-shape signal; the result is divided by 1 + it, to stay in [0, 1].
const SHAPE = 0.05;
// How much a passage can lose for lacking the kind of answer asked for beside the question's words.
const NEAR = 0.25;

/**
 * For a question asking for a date or an amount: whether the passage has one in the sentence that
 * holds the question's words, weighted by how many of them that sentence holds (square root, so a
 * sentence with half the words still counts 0.7); 1 for other questions. On-topic passages that
 * mention the question's entities but not its answer have their dates and numbers elsewhere.
 */
export function answerNearQuery(query: string, passage: string, canonical?: (text: string) => string): number {
  return answerNearTest(query, canonical)(passage);
}

/** `answerNearQuery` for one query, its words read once, over any number of passages. */
function answerNearTest(query: string, canonical: (text: string) => string = (t) => t): (passage: string) => number {
  if (!asksForShape(query)) return () => 1;
  const holding = sentenceFinder(queryUnits(query, canonical));
  const shape = answerShapeTest(query);
  return (passage) => {
    const sentence = holding(canonical(normaliseText(passage)));
    return shape(sentence.text) * Math.sqrt(sentence.coverage);
  };
}

/**
 * The local reranker's score of one passage: half the first-stage score, half the phrase match,
 * scaled down for a passage missing the query's numbers and for one without the kind of answer
 * asked for near the question's words, plus a bonus when it holds that kind of answer anywhere.
 * Bag-of-words retrieval cannot tell "2021年中国电影市场总票房" from the same words in another
 * order or another year's sentence; phrase, number and answer-position matching can. Every signal
 * is linear in the passage. Measured with `npm run eval` (see docs/search-quality.md).
 */
export function localRerankScore(query: string, candidate: RerankCandidate, canonical?: (text: string) => string): number {
  return localRerankScorer(query, canonical)(candidate);
}

/**
 * `localRerankScore` for one query over any number of candidates: what it reads of the query (its
 * squashed form, numbers, kind of question, words) is read once rather than once a candidate.
 */
export function localRerankScorer(query: string, canonical?: (text: string) => string): (candidate: RerankCandidate) => number {
  const phrase = phraseMatcher(query, canonical);
  const numbers = numberTest(query);
  const near = answerNearTest(query, canonical);
  const shape = answerShapeTest(query);
  return (candidate) => {
    const lexical = 0.5 * candidate.score + 0.5 * phrase(candidate.text);
    const numbersFactor = 0.5 + 0.5 * numbers(candidate.text);
    const nearFactor = 1 - NEAR + NEAR * near(candidate.text);
    return (lexical * numbersFactor * nearFactor + SHAPE * shape(candidate.text)) / (1 + SHAPE);
  };
}

/** The local reranker: `localRerankScore` for each candidate, with the workshop's synonyms. */
export class LocalReranker implements Reranker {
  readonly model = "local-phrase-v3";

  async rerank(query: string, candidates: RerankCandidate[], synonyms?: Synonyms): Promise<number[]> {
    return candidates.map(localRerankScorer(query, synonyms?.canonicaliserFor(query)));
  }
}
