import { countWork } from "../work-count.ts";

const CJK_CHAR = /[\u3400-\u9fff\uf900-\ufaff]/;
const LATIN_WORD = /[a-z0-9]+/g;

/**
 * The units two texts are compared by: Chinese has no spaces, so CJK runs become character bigrams
 * (a lone character stays a unigram); Latin text becomes lowercase words with a plural 's' dropped.
 */
export function grams(text: string): Set<string> {
  countWork(text.length);
  const normal = text.normalize("NFKC").toLowerCase();
  const out = new Set<string>();
  let run = "";
  const flush = () => {
    if (run.length === 1) out.add(run);
    for (let i = 0; i + 1 < run.length; i++) out.add(run.slice(i, i + 2));
    run = "";
  };
  for (const char of normal) {
    if (CJK_CHAR.test(char)) run += char;
    else flush();
  }
  flush();
  for (const word of normal.match(LATIN_WORD) ?? []) out.add(word.length > 3 ? word.replace(/s$/, "") : word);
  return out;
}

function normalise(text: string): string {
  countWork(text.length);
  return text.normalize("NFKC").toLowerCase().replace(/\s+/g, "");
}

/** A text prepared once for matching against many phrases: normalised and cut into grams. */
export interface MatchText {
  raw: string;
  grams: Set<string>;
  /** The normalised text; computed once here rather than once per phrase compared. */
  normal?: string;
}

/** Prepares `text` for `coverage`: its grams and normal form, each computed once. */
export function matchText(text: string): Required<MatchText> {
  return { raw: text, grams: grams(text), normal: normalise(text) };
}

/**
 * How much of `phrase` the text contains, from 0 (nothing) to 1 (all of it, verbatim or gram by
 * gram in any order). Verbatim containment also covers one-character phrases such as "脏".
 */
export function coverage(text: MatchText, phrase: string): number {
  const needle = normalise(phrase);
  if (needle && (text.normal ?? normalise(text.raw)).includes(needle)) return 1;
  const wanted = grams(phrase);
  if (wanted.size === 0) return 0;
  let found = 0;
  for (const gram of wanted) if (text.grams.has(gram)) found++;
  return found / wanted.size;
}

/**
 * A description and the shorter phrases inside it: "轻薄面料（雪纺、真丝）" also stands for "雪纺"
 * and "真丝", so a user who names one example matches the whole option.
 */
export function withParts(phrase: string): string[] {
  countWork(phrase.length);
  // The lookbehind tries " or " from the start of a run of spaces only: tried from every space, a
  // long run took quadratic time.
  const parts = phrase
    .split(/[()（）、，,;；/|：:。.]+|(?<!\s)\s+or\s+|或/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0 && part !== phrase);
  return [phrase, ...parts];
}

export interface Candidate<T> {
  value: T;
  phrases: string[];
}

/**
 * Picks the candidate whose phrases `text` covers best, but only when the match is good
 * (`threshold`) and clearly ahead of the next candidate (`margin`); otherwise null.
 */
export function bestMatch<T>(text: string, candidates: Candidate<T>[], threshold = 0.5, margin = 0.15): T | null {
  const query = matchText(text);
  const scored = candidates
    .map((candidate) => ({ value: candidate.value, score: Math.max(0, ...candidate.phrases.map((p) => coverage(query, p))) }))
    .sort((a, b) => b.score - a.score);
  const [first, second] = scored;
  if (!first || first.score < threshold) return null;
  if (second && first.score - second.score < margin) return null;
  return first.value;
}
