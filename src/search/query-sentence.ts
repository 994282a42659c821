import { normaliseText, queryText } from "./segment.ts";
import { type Tokens, textUnits, tokensOf, type UnitKey, unitKey } from "./units.ts";

// Tokens a window spans, about a long clause. Widened to whole sentences afterwards, the result
// hardly depends on it (measured at 10, 20 and 30: rgb-zh-dev nDCG@10 0.802 to 0.805, the other
// sets within 0.001).
const WINDOW = 20;

/** The units a query is matched by: its own, question words left out, normalised and canonicalised. */
export function queryUnits(query: string, canonical: (text: string) => string = (t) => t): Set<string> {
  return textUnits(canonical(normaliseText(queryText(query))));
}

/** The sentence of a passage that holds most of the query's words, and the share of them it holds. */
export interface QuerySentence {
  text: string;
  /** Distinct query units (CJK bigrams, other words) in the densest window, over all of the query's: 0 to 1. */
  coverage: number;
  /** Its tokens, `from` to `to` (exclusive), in the passage's `tokensOf`. */
  tokens: { from: number; to: number };
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
  return sentenceFinder(wanted)(text);
}

/**
 * `sentenceHolding` for one query's units over any number of passages, given their tokens where
 * the caller has them. Units are compared by their keys (`unitKey`), so a hit makes no string.
 */
export function sentenceFinder(wanted: ReadonlySet<string>): (text: string, tokens?: Tokens) => QuerySentence {
  const keys = new Set([...wanted].map(unitKey));
  return (text, tokens = tokensOf(text)) => {
    const { start, end, key, pair } = tokens;
    // Each hit's unit, and the tokens it starts and ends at.
    const hitKeys: UnitKey[] = [];
    const hitFirst: number[] = [];
    const hitLast: number[] = [];
    for (let t = 0; t < tokens.count; t++) {
      // A bigram ends at this token; then the character itself, or the word.
      const bigram = pair[t] as number;
      if (bigram >= 0 && keys.has(bigram)) {
        hitKeys.push(bigram);
        hitFirst.push(t - 1);
        hitLast.push(t);
      }
      const own = key[t] as UnitKey;
      if (keys.has(own)) {
        hitKeys.push(own);
        hitFirst.push(t);
        hitLast.push(t);
      }
    }
    const inWindow = new Map<UnitKey, number>();
    let best = { units: 0, first: 0, last: 0 };
    let from = 0;
    for (let h = 0; h < hitKeys.length; h++) {
      const unit = hitKeys[h] as UnitKey;
      const first = hitFirst[h] as number;
      inWindow.set(unit, (inWindow.get(unit) ?? 0) + 1);
      // Drop hits that fell out of the window, and repeats at its left edge, so it is as tight as it can be.
      for (; from < hitKeys.length; from++) {
        const left = hitKeys[from] as UnitKey;
        const count = inWindow.get(left) ?? 1;
        if ((hitFirst[from] as number) > first - WINDOW && count === 1) break;
        if (count === 1) inWindow.delete(left);
        else inWindow.set(left, count - 1);
      }
      if (inWindow.size > best.units)
        best = { units: inWindow.size, first: hitFirst[from] as number, last: hitLast[h] as number };
    }
    if (best.units === 0) return { text: "", coverage: 0, tokens: { from: 0, to: 0 } };
    const [opens, closes] = sentenceAround(text, start[best.first] as number, end[best.last] as number);
    // The sentence's ends are sentence ends, never inside a token, so it holds whole tokens.
    let first = best.first;
    while (first > 0 && (start[first - 1] as number) >= opens) first--;
    let last = best.last;
    while (last + 1 < tokens.count && (end[last + 1] as number) <= closes) last++;
    return { text: text.slice(opens, closes), coverage: best.units / wanted.size, tokens: { from: first, to: last + 1 } };
  };
}

/** From the sentence end before `start` to the first sentence end at or after `end`, as offsets. */
function sentenceAround(text: string, start: number, end: number): [number, number] {
  let from = start;
  while (from > 0 && !endsSentence(text, from - 1)) from--;
  let to = end;
  while (to < text.length && !endsSentence(text, to)) to++;
  return [from, to];
}
const SENTENCE_END_CHARACTERS = new Set([..."。！？；!?;\n"].map((c) => c.charCodeAt(0)));
const SPACE = /\s/;

/** Whether the character at `i` ends a sentence: a Chinese sentence or clause end, a line break, or a full stop before a space or the end. */
function endsSentence(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (SENTENCE_END_CHARACTERS.has(c)) return true;
  return c === 0x2e && (i + 1 === text.length || SPACE.test(text.charAt(i + 1)));
}
