const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
// A word, or words joined by hyphens ("GPT-4", "COVID-19"), matched in one pass without backtracking.
const COMPOUND = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu;
const LETTERS_OR_DIGITS = /\p{L}+|\p{N}+/gu;

const WORD_CHARACTER = /^[\p{L}\p{N}]$/u;

// Search normalises each candidate's text several times (the reranker's signals, the calibration's
// evidence) and the same chunks again on later queries; NFKC is most of a short text's cost. Texts
// of a passage's size are remembered, a bounded number, the oldest forgotten first.
const normalised = new Map<string, string>();
const NORMALISED_KEPT = 512;
const REMEMBERED_LENGTH = { min: 64, max: 4096 } as const;

/**
 * Unicode NFKC (full-width letters, digits and hyphens become half-width) and lower case, final
 * sigma folded to σ as SQLite's unicode61 tokenizer folds it: the keyword index's vocabulary holds
 * terms as that tokenizer does, so a term kept with ς would never find its count there.
 */
export function normaliseText(text: string): string {
  if (text.length < REMEMBERED_LENGTH.min || text.length > REMEMBERED_LENGTH.max) return folded(text);
  let out = normalised.get(text);
  if (out === undefined) {
    out = folded(text);
    if (normalised.size >= NORMALISED_KEPT) normalised.delete(normalised.keys().next().value as string);
    normalised.set(text, out);
  }
  return out;
}

function folded(text: string): string {
  return text.normalize("NFKC").toLowerCase().replaceAll("ς", "σ");
}

// Whether each BMP code unit is a letter or a digit (1) or not (2), learnt as met (0: not yet).
const wordUnit = new Uint8Array(0x10000);

/** The width (1, or 2 for a surrogate pair) of the letter or digit at `i`, 0 if it is neither. */
function wordWidthAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) ? 1 : 0;
  if (c >= 0xd800 && c <= 0xdfff) {
    const pair = text.slice(i, i + 2);
    return pair.length === 2 && WORD_CHARACTER.test(pair) ? 2 : 0;
  }
  if (wordUnit[c] === 0) wordUnit[c] = WORD_CHARACTER.test(String.fromCharCode(c)) ? 1 : 2;
  return wordUnit[c] === 1 ? 1 : 0;
}

/**
 * Normalised, with spaces and punctuation removed: the form phrase matching compares. What
 * `replace(/[^\p{L}\p{N}]+/gu, "")` leaves (a lone surrogate goes too), read by character codes:
 * the expression cost five times more, and search squashes every candidate.
 */
export function squash(text: string): string {
  const t = normaliseText(text);
  let out = "";
  let from = 0;
  let i = 0;
  while (i < t.length) {
    const width = wordWidthAt(t, i);
    if (width > 0) {
      i += width;
      continue;
    }
    if (i > from) out += t.slice(from, i);
    // A high surrogate without its low one is one code point; a pair that is no letter is two units.
    i +=
      t.charCodeAt(i) >= 0xd800 &&
      t.charCodeAt(i) <= 0xdbff &&
      i + 1 < t.length &&
      t.charCodeAt(i + 1) >= 0xdc00 &&
      t.charCodeAt(i + 1) <= 0xdfff
        ? 2
        : 1;
    from = i;
  }
  return from === 0 ? t : out + t.slice(from);
}

function pushCjkRun(out: string[], run: string) {
  for (let i = 0; i < run.length; i++) {
    out.push(run[i] as string);
    if (i + 1 < run.length) out.push(run.slice(i, i + 2));
  }
}

// A run of non-CJK letters and digits: the word itself, and its letter and digit parts when it
// mixes them, so "cvpr2022" also matches "CVPR 2022" and "100kg" matches "100 kg". A lone letter
// ("1990s", "A01") is left out: as a term it would match every other such letter.
function pushWord(out: string[], word: string) {
  out.push(word);
  const parts = word.match(LETTERS_OR_DIGITS);
  if (parts && parts.length > 1) for (const part of parts) if (part.length > 1 || /\p{N}/u.test(part)) out.push(part);
}

// One hyphen-free piece: CJK runs give characters and bigrams, other runs give words.
function pushPiece(out: string[], piece: string) {
  let run = "";
  let word = "";
  for (const char of piece) {
    if (CJK.test(char)) {
      if (word) pushWord(out, word);
      word = "";
      run += char;
    } else {
      if (run) pushCjkRun(out, run);
      run = "";
      word += char;
    }
  }
  if (run) pushCjkRun(out, run);
  if (word) pushWord(out, word);
}

/**
 * Terms a text is indexed and searched by. Chinese has no spaces, so each run of CJK characters
 * gives its characters and their bigrams; other scripts give lowercase words, split further where
 * letters meet digits, and hyphenated words give their parts and the joined form ("GPT-4" →
 * gpt, 4, gpt4), so `GPT4`, `GPT-4` and `GPT 4` match each other. The same function feeds the
 * keyword index, the local embedder and the local reranker, so all three agree.
 */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const match of normaliseText(text).matchAll(COMPOUND)) {
    const pieces = match[0].split("-");
    for (const piece of pieces) pushPiece(out, piece);
    if (pieces.length > 1 && !CJK.test(match[0])) out.push(pieces.join(""));
  }
  return out;
}

// Question words say what kind of answer is wanted, not what it is about; as query terms they
// match passages that ask rather than answer. Measured: +0.005 to +0.007 nDCG@10 on every eval set.
const ASKING =
  /是多少|有多少|多少|是什么|什么|哪些|哪个|哪里|哪儿|哪一|怎么样|怎么办|怎么|如何|为什么|是否|吗|呢|请问|谁是|是谁|几个|几|\b(?:what|which|who|whom|whose|when|where|why|how)\b/gi;
// As terms, English function words match every passage too; in a phrase they hold words together.
const QUESTION_WORDS = new RegExp(
  `${ASKING.source}|\\b(?:is|are|was|were|do|does|did|the|a|an|of|in|on|at|to|for|and|or|by|with|from)\\b`,
  "gi",
);

/** The query with question words blanked out, unless that leaves no terms. */
export function queryText(query: string): string {
  const stripped = query.replace(QUESTION_WORDS, " ");
  return terms(stripped).length > 0 ? stripped : query;
}

/** Which characters of a text belong to a word that asks (怎么, 多少, how): 1 for those, 0 for the rest. */
export function askingMask(text: string): Uint8Array {
  const mask = new Uint8Array(text.length);
  for (const match of text.matchAll(ASKING)) mask.fill(1, match.index, match.index + match[0].length);
  return mask;
}

/** The terms a query is searched by: its own, less question words, unless that leaves nothing. */
export function queryTerms(query: string): string[] {
  return terms(queryText(query));
}
