import { normaliseText, queryText } from "./segment.ts";

// A token is one CJK character or one run of other letters and digits (CJK characters are letters too).
const TOKEN = /[\u3400-\u9fff\uf900-\ufaff]|(?:(?![\u3400-\u9fff\uf900-\ufaff])[\p{L}\p{N}])+/gu;
const CJK_CHAR = /^[\u3400-\u9fff\uf900-\ufaff]$/;
// Chinese sentence and clause ends, line breaks, and an English full stop before a space.
const SENTENCE_END = /[。！？；!?;\n]|\.(?=\s|$)/g;
// Tokens a window spans, about a long clause. Widened to whole sentences afterwards, the result
// hardly depends on it (measured at 10, 20 and 30: rgb-zh-dev nDCG@10 0.802 to 0.805, the other
// sets within 0.001).
const WINDOW = 20;

interface Token {
  text: string;
  start: number;
  end: number;
  /** Whether it touches the token before it (no space or punctuation between them). */
  joined: boolean;
}

interface Hit {
  unit: string;
  /** Index of the unit's first token and of its last (the same for a word, the next for a bigram). */
  first: number;
  last: number;
}

function tokenise(text: string): Token[] {
  const out: Token[] = [];
  let previousEnd = -1;
  for (const m of text.matchAll(TOKEN)) {
    out.push({ text: m[0], start: m.index, end: m.index + m[0].length, joined: m.index === previousEnd });
    previousEnd = m.index + m[0].length;
  }
  return out;
}

const isCjk = (t: Token | undefined) => t !== undefined && CJK_CHAR.test(t.text);

// What a query is matched by: the bigrams of its CJK runs (a one-character run as itself) and its other words.
function queryUnits(query: Token[]): Set<string> {
  const out = new Set<string>();
  query.forEach((t, i) => {
    const next = query[i + 1];
    const pairsWithNext = isCjk(t) && next?.joined === true && isCjk(next);
    const pairedWithPrevious = isCjk(t) && t.joined && isCjk(query[i - 1]);
    if (pairsWithNext) out.add(t.text + (next as Token).text);
    else if (!pairedWithPrevious) out.add(t.text);
  });
  return out;
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
  const wanted = queryUnits(tokenise(canonical(normaliseText(queryText(query)))));
  const text = canonical(normaliseText(passage));
  const tokens = tokenise(text);
  const hits: Hit[] = [];
  tokens.forEach((t, i) => {
    if (wanted.has(t.text)) hits.push({ unit: t.text, first: i, last: i });
    const next = tokens[i + 1];
    if (next?.joined && wanted.has(t.text + next.text)) hits.push({ unit: t.text + next.text, first: i, last: i + 1 });
  });
  const inWindow = new Map<string, number>();
  let best = { units: 0, first: 0, last: 0 };
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
    if (inWindow.size > best.units) best = { units: inWindow.size, first: (hits[from] as Hit).first, last: hit.last };
  }
  if (best.units === 0) return { text: "", coverage: 0 };
  const start = (tokens[best.first] as Token).start;
  const end = (tokens[best.last] as Token).end;
  return { text: sentenceAround(text, start, end), coverage: best.units / wanted.size };
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
