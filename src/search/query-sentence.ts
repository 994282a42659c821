import { normaliseText, queryText } from "./segment.ts";
import { cjkKey, scanTokens, textUnits, unitKey } from "./units.ts";

// Chinese sentence and clause ends, line breaks, and an English full stop before a space.
const SENTENCE_END = /[。！？；!?;\n]|\.(?=\s|$)/g;
// Tokens a window spans, about a long clause. Widened to whole sentences afterwards, the result
// hardly depends on it (measured at 10, 20 and 30: rgb-zh-dev nDCG@10 0.802 to 0.805, the other
// sets within 0.001).
const WINDOW = 20;

interface Hit {
  unit: string;
  /** Index of the unit's first token and of its last (the same for a word, the next for a bigram). */
  first: number;
  last: number;
  /** Where the first token starts in the text and where the last one ends. */
  start: number;
  end: number;
}

/** The units a query is matched by: its own, question words left out, normalised and canonicalised. */
export function queryUnits(query: string, canonical: (text: string) => string = (t) => t): Set<string> {
  return textUnits(canonical(normaliseText(queryText(query))));
}

/** The sentence of a passage that holds most of the query's words, and the share of them it holds. */
export interface QuerySentence {
  text: string;
  /** Distinct query units (CJK bigrams, other words) in the densest window, over all of the query's: 0 to 1. */
  coverage: number;
}

/**
 * The sentence of the passage where the query's words sit most densely: the window of a few
 * tokens holding the most distinct query units, widened to the sentence ends around it; empty
 * when the passage shares nothing with the query. A passage that answers tends to state the
 * answer in the same sentence as the question's words; one that only shares the topic has its
 * dates and numbers elsewhere. Linear in the passage (one pass, a sliding window). `canonical`
 * rewrites both texts first (synonyms to one word).
 */
export function querySentence(query: string, passage: string, canonical: (text: string) => string = (t) => t): QuerySentence {
  return sentenceHolding(queryUnits(query, canonical), canonical(normaliseText(passage)));
}

/** `querySentence` for a query's units and a passage already normalised and canonicalised. */
export function sentenceHolding(wanted: ReadonlySet<string>, text: string): QuerySentence {
  const keys = new Set([...wanted].map(unitKey));
  const hits: Hit[] = [];
  scanTokens(text, (start, end, index, cjk, pairs) => {
    // A bigram ends at this character; then the character itself, or the word.
    if (pairs && keys.has(cjkKey(text.charCodeAt(start - 1), text.charCodeAt(start)))) {
      hits.push({ unit: text.slice(start - 1, end), first: index - 1, last: index, start: start - 1, end });
    }
    if (cjk ? keys.has(cjkKey(text.charCodeAt(start))) : keys.has(text.slice(start, end))) {
      hits.push({ unit: text.slice(start, end), first: index, last: index, start, end });
    }
  });
  const inWindow = new Map<string, number>();
  let best = { units: 0, start: 0, end: 0 };
  let from = 0;
  for (const hit of hits) {
    inWindow.set(hit.unit, (inWindow.get(hit.unit) ?? 0) + 1);
    // Drop hits that fell out of the window, and repeats at its left edge, so it is as tight as it can be.
    for (let left = hits[from]; left; left = hits[++from]) {
      const count = inWindow.get(left.unit) ?? 1;
      if (left.first > hit.first - WINDOW && count === 1) break;
      if (count === 1) inWindow.delete(left.unit);
      else inWindow.set(left.unit, count - 1);
    }
    if (inWindow.size > best.units) best = { units: inWindow.size, start: (hits[from] as Hit).start, end: hit.end };
  }
  if (best.units === 0) return { text: "", coverage: 0 };
  return { text: sentenceAround(text, best.start, best.end), coverage: best.units / wanted.size };
}

/** From the sentence end before `start` to the first sentence end at or after `end`. */
function sentenceAround(text: string, start: number, end: number): string {
  let from = 0;
  let to = text.length;
  for (const m of text.matchAll(SENTENCE_END)) {
    if (m.index < start) from = m.index + 1;
    else if (m.index >= end) {
      to = m.index;
      break;
    }
  }
  return text.slice(from, to);
}
