// The units texts are compared by in the sentence and evidence signals: the bigrams of CJK runs (a
// one-character run as itself) and runs of other letters and digits. Passages are scanned on every
// search, so this works by character codes: a regular expression's match objects, and a string
// for every bigram, cost several times more.

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

export const isCjkCode = (c: number) => (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff);

/** The length of the letter or digit (not CJK) at `i`, a surrogate pair counting 2; 0 if there is none. */
function wordCharAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a)) return 1;
  if (c < 0x80 || isCjkCode(c)) return 0;
  const width = c >= 0xd800 && c <= 0xdbff ? 2 : 1;
  return LETTER_OR_DIGIT.test(text.slice(i, i + width)) ? width : 0;
}

/** A unit as a map key: a CJK character or bigram as a number (no string is made), another word as itself. */
export type UnitKey = number | string;

// CJK code points, counted from 0 without the gap between the two ranges `isCjkCode` accepts.
const CJK_CODES = 0x9fff - 0x3400 + 1 + (0xfaff - 0xf900 + 1);
const cjkIndex = (c: number) => (c <= 0x9fff ? c - 0x3400 : c - 0xf900 + 0x6c00);

/**
 * The key of a CJK character (`first` alone) or bigram: a character's index, or past every index
 * one number per pair. Every key stays below 2³⁰, a small integer to V8, so a map lookup by it
 * makes no heap number (code × 0x10000 + code did, for almost every bigram).
 */
export const cjkKey = (first: number, second?: number) =>
  second === undefined ? cjkIndex(first) : CJK_CODES + cjkIndex(first) * CJK_CODES + cjkIndex(second);

/** The key of a unit given as a string. */
export function unitKey(unit: string): UnitKey {
  const first = unit.charCodeAt(0);
  if (unit.length === 1 && isCjkCode(first)) return cjkKey(first);
  if (unit.length === 2 && isCjkCode(first) && isCjkCode(unit.charCodeAt(1))) return cjkKey(first, unit.charCodeAt(1));
  return unit;
}

/**
 * A text's tokens, in order: each CJK character, and each run of other letters and digits. A text
 * is scanned once for every question a search asks of it: where each token starts and ends, its
 * key (a CJK character's, or the word), and the key of the bigram it ends (a CJK character directly
 * after another), or -1.
 */
export interface Tokens {
  readonly count: number;
  readonly start: Int32Array;
  readonly end: Int32Array;
  readonly key: readonly UnitKey[];
  readonly pair: Int32Array;
}

export function tokensOf(text: string): Tokens {
  const start = new Int32Array(text.length);
  const end = new Int32Array(text.length);
  const pair = new Int32Array(text.length);
  const key: UnitKey[] = [];
  let count = 0;
  let previousCjkEnd = -1;
  for (let i = 0; i < text.length; ) {
    const code = text.charCodeAt(i);
    if (isCjkCode(code)) {
      start[count] = i;
      end[count] = i + 1;
      key.push(cjkKey(code));
      pair[count++] = previousCjkEnd === i ? cjkKey(text.charCodeAt(i - 1), code) : -1;
      previousCjkEnd = ++i;
      continue;
    }
    let to = i;
    for (let width = wordCharAt(text, to); width > 0; width = wordCharAt(text, to)) to += width;
    if (to > i) {
      start[count] = i;
      end[count] = to;
      key.push(text.slice(i, to));
      pair[count++] = -1;
      i = to;
    } else {
      i += 1;
    }
  }
  // Sized to the tokens, not the text: a passage's tokens may be kept (`passage-analysis.ts`).
  return { count, start: start.slice(0, count), end: end.slice(0, count), key, pair: pair.slice(0, count) };
}

/**
 * Calls `visit` for every unit of tokens `from` to `to` (exclusive), repeats included, in text order,
 * with its key and its first and last token: the bigrams of each CJK run (a one-character run as
 * itself), and every other word. With `everyCharacter`, every CJK character is visited as well, so
 * a one-character unit (a query's "省") is found inside a run ("河北省").
 */
export function forEachUnit(
  tokens: Tokens,
  from: number,
  to: number,
  visit: (key: UnitKey, first: number, last: number) => void,
  everyCharacter = false,
): void {
  const { key, pair } = tokens;
  for (let t = from; t < to; t++) {
    const own = key[t] as UnitKey;
    if (typeof own === "string") {
      visit(own, t, t);
      continue;
    }
    if (everyCharacter) visit(own, t, t);
    const bigram = pair[t] as number;
    if (bigram >= 0 && t > from) visit(bigram, t - 1, t);
    else if (!everyCharacter && !(t + 1 < to && (pair[t + 1] as number) >= 0)) visit(own, t, t);
  }
}

/**
 * The distinct units of a text already normalised and, where synonyms apply, canonicalised. What
 * queries, sentences and passages are compared by.
 */
export function textUnits(text: string): Set<string> {
  const tokens = tokensOf(text);
  const out = new Set<string>();
  forEachUnit(tokens, 0, tokens.count, (_, first, last) => out.add(text.slice(tokens.start[first], tokens.end[last])));
  return out;
}
