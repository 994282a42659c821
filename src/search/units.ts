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

/**
 * Calls `visit` for each token of the text in order: one CJK character (`cjk`), or one run of other
 * letters and digits. `pairs` says a CJK character directly follows another, so the two form a
 * bigram. `index` counts tokens.
 */
export function scanTokens(
  text: string,
  visit: (start: number, end: number, index: number, cjk: boolean, pairs: boolean) => void,
): void {
  let index = 0;
  let previousCjkEnd = -1;
  for (let i = 0; i < text.length; ) {
    if (isCjkCode(text.charCodeAt(i))) {
      visit(i, i + 1, index++, true, previousCjkEnd === i);
      previousCjkEnd = ++i;
      continue;
    }
    let end = i;
    for (let width = wordCharAt(text, end); width > 0; width = wordCharAt(text, end)) end += width;
    if (end > i) {
      visit(i, end, index++, false, false);
      i = end;
    } else {
      i += 1;
    }
  }
}

/** A unit as a map key: a CJK character or bigram as a number (no string is made), another word as itself. */
export type UnitKey = number | string;

/** The key of a CJK character (`first` alone) or bigram. */
export const cjkKey = (first: number, second?: number) => (second === undefined ? first : first * 0x10000 + second);

/** The key of a unit given as a string. */
export function unitKey(unit: string): UnitKey {
  const first = unit.charCodeAt(0);
  if (unit.length === 1 && isCjkCode(first)) return cjkKey(first);
  if (unit.length === 2 && isCjkCode(first) && isCjkCode(unit.charCodeAt(1))) return cjkKey(first, unit.charCodeAt(1));
  return unit;
}

/**
 * Calls `visit` for every unit of a text, repeats included, with its key and where it sits: the
 * bigrams of each CJK run (a one-character run as itself), and every other word. With
 * `everyCharacter`, every CJK character is visited as well, so a one-character unit (a query's
 * "省") is found inside a run ("河北省").
 */
export function forEachUnit(
  text: string,
  visit: (key: UnitKey, start: number, end: number) => void,
  everyCharacter = false,
): void {
  // A CJK character waiting to see whether the next one pairs with it.
  let lone = -1;
  scanTokens(text, (start, end, _, cjk, pairs) => {
    if (everyCharacter && cjk) visit(cjkKey(text.charCodeAt(start)), start, end);
    if (pairs) {
      visit(cjkKey(text.charCodeAt(start - 1), text.charCodeAt(start)), start - 1, end);
      lone = -1;
      return;
    }
    if (lone >= 0) visit(cjkKey(text.charCodeAt(lone)), lone, lone + 1);
    // With `everyCharacter` a one-character run was visited above already.
    lone = cjk && !everyCharacter ? start : -1;
    if (!cjk) visit(text.slice(start, end), start, end);
  });
  if (lone >= 0) visit(cjkKey(text.charCodeAt(lone)), lone, lone + 1);
}

/**
 * The distinct units of a text already normalised and, where synonyms apply, canonicalised. What
 * queries, sentences and passages are compared by.
 */
export function textUnits(text: string): Set<string> {
  const out = new Set<string>();
  forEachUnit(text, (_, start, end) => out.add(text.slice(start, end)));
  return out;
}
