// What calibration reads of a passage whatever the question: its tokens and the kinds of fact it
// states. A workshop's searches keep meeting the same passages, so an isolate keeps the analysis of
// the latest 256, by their text as calibration reads it (normalised, synonyms rewritten to one
// word): a text is its own key, so a kept analysis is never stale. About 20 bytes a token: 13 KB
// for a full chunk of 600 Chinese characters, so a few megabytes at most. Measured on the demo's `knowledge_search`, it saved about a third of
// calibration's time (docs/benchmarks.md, issue 27's seventh round).
import { LruMap } from "../lru-map.ts";
import { statedFacts } from "./answer-shape.ts";
import { type Tokens, tokensOf } from "./units.ts";

export interface PassageAnalysis {
  tokens: Tokens;
  facts: { quantity: number; moment: number };
}

const kept = new LruMap<string, PassageAnalysis>(256);

/** The analysis of a passage's text, kept or made now. */
export function analysePassage(text: string): PassageAnalysis {
  let analysis = kept.get(text);
  if (!analysis) {
    analysis = { tokens: tokensOf(text), facts: statedFacts(text) };
    kept.set(text, analysis);
  }
  return analysis;
}
