// What calibration reads of a passage whatever the question: its tokens and the kinds of fact it
// states. A workshop's searches keep meeting the same passages, so an isolate keeps the analysis of
// the latest ones, by their text as calibration reads it (normalised, synonyms rewritten to one
// word): a text is its own key, so a kept analysis is never stale. About 20 bytes a token: 13 KB
// for a full chunk of 600 Chinese characters. Measured on the demo's `knowledge_search`, it saved
// about a third of calibration's time (docs/benchmarks.md, issue 27's seventh round). Bounded by
// tokens, 500,000 in all (about 10 MB): 256 passages at most served a few workshops, and a
// deployment of a thousand analysed nearly every passage again (`npm run bench -- tenants`).
import { LruMap } from "../lru-map.ts";
import { statedFacts } from "./answer-shape.ts";
import { type Tokens, tokensOf } from "./units.ts";

export interface PassageAnalysis {
  tokens: Tokens;
  facts: { quantity: number; moment: number };
}

const kept = new LruMap<string, PassageAnalysis>(65_536, { weigh: (a) => a.tokens.count, budget: 500_000 });

/** The analysis of a passage's text, kept or made now. */
export function analysePassage(text: string): PassageAnalysis {
  let analysis = kept.get(text);
  if (!analysis) {
    analysis = { tokens: tokensOf(text), facts: statedFacts(text) };
    kept.set(text, analysis);
  }
  return analysis;
}
