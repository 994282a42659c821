import { answerShapeMatch, numberMatch } from "./answer-shape.ts";
import type { RerankCandidate, Reranker } from "./reranker.ts";
import { squash } from "./segment.ts";
import type { Synonyms } from "./synonyms.ts";

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

/**
 * The local reranker: half the first-stage score, half the phrase match, scaled down for a
 * passage missing the query's numbers, plus a bonus when it holds the kind of answer asked for.
 * Bag-of-words retrieval cannot tell "2021年中国电影市场总票房" from the same words in another
 * order or another year's sentence; phrase and number matching can. Measured with `npm run eval`
 * (see the README).
 */
export class LocalReranker implements Reranker {
  readonly model = "local-phrase-v2";

  async rerank(query: string, candidates: RerankCandidate[], synonyms?: Synonyms): Promise<number[]> {
    const canonical = synonyms?.canonicaliserFor(query);
    return candidates.map((c) => {
      const lexical = 0.5 * c.score + 0.5 * phraseMatch(query, c.text, canonical);
      const numbers = 0.5 + 0.5 * numberMatch(query, c.text);
      return (lexical * numbers + SHAPE * answerShapeMatch(query, c.text)) / (1 + SHAPE);
    });
  }
}
