import { normaliseText, queryText } from "./segment.ts";
import { cjkKey, scanTokens, textUnits, type UnitKey, unitKey } from "./units.ts";

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
 * `sentenceHolding` for one query's units over any number of passages. Units are compared by
 * their keys (`unitKey`), so a hit makes no string but for a word.
 */
export function sentenceFinder(wanted: ReadonlySet<string>): (text: string) => QuerySentence {
  const keys = new Set([...wanted].map(unitKey));
  return (text) => {
    const hitKeys: UnitKey[] = [];
    const hitFirst: number[] = [];
    const hitStart: number[] = [];
    const hitEnd: number[] = [];
    const hit = (key: UnitKey, first: number, start: number, end: number) => {
      hitKeys.push(key);
      hitFirst.push(first);
      hitStart.push(start);
      hitEnd.push(end);
    };
    scanTokens(text, (start, end, index, cjk, pairs) => {
      // A bigram ends at this character; then the character itself, or the word.
      if (pairs) {
        const key = cjkKey(text.charCodeAt(start - 1), text.charCodeAt(start));
        if (keys.has(key)) hit(key, index - 1, start - 1, end);
      }
      const key = cjk ? cjkKey(text.charCodeAt(start)) : text.slice(start, end);
      if (keys.has(key)) hit(key, index, start, end);
    });
    const inWindow = new Map<UnitKey, number>();
    let best = { units: 0, start: 0, end: 0 };
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
      if (inWindow.size > best.units) best = { units: inWindow.size, start: hitStart[from] as number, end: hitEnd[h] as number };
    }
    if (best.units === 0) return { text: "", coverage: 0 };
    return { text: sentenceAround(text, best.start, best.end), coverage: best.units / wanted.size };
  };
}

/** From the sentence end before `start` to the first sentence end at or after `end`. */
function sentenceAround(text: string, start: number, end: number): string {
  let from = start;
  while (from > 0 && !endsSentence(text, from - 1)) from--;
  let to = end;
  while (to < text.length && !endsSentence(text, to)) to++;
  return text.slice(from, to);
}

const SENTENCE_END_CHARACTERS = new Set([..."。！？；!?;\n"].map((c) => c.charCodeAt(0)));
const SPACE = /\s/;

/** Whether the character at `i` ends a sentence: a Chinese sentence or clause end, a line break, or a full stop before a space or the end. */
function endsSentence(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (SENTENCE_END_CHARACTERS.has(c)) return true;
  return c === 0x2e && (i + 1 === text.length || SPACE.test(text.charAt(i + 1)));
}
