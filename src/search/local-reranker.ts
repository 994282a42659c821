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

/**
 * The local reranker: half the first-stage score, half the phrase match. Bag-of-words retrieval
 * cannot tell "2021年中国电影市场总票房" from the same words in another order or another year's
 * sentence; phrase matching can. Measured with `npm run eval` (see the README).
 */
export class LocalReranker implements Reranker {
  readonly model = "local-phrase-v1";

  async rerank(query: string, candidates: RerankCandidate[], synonyms?: Synonyms): Promise<number[]> {
    const canonical = synonyms?.canonicaliserFor(query);
    return candidates.map((c) => 0.5 * c.score + 0.5 * phraseMatch(query, c.text, canonical));
  }
}
