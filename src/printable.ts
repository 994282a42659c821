/**
 * Characters no name may hold: C0 controls (NUL, ESC, tab, line breaks…), DEL, C1 controls, and
 * the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which make a
 * name read differently from what it is, in a terminal, a page or a log.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this pattern's purpose
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
const UNPRINTABLE_ALL = new RegExp(UNPRINTABLE.source, "gu");

/** The first such character in `text`: its 1-based position (counted in characters) and code point. */
export function firstUnprintable(text: string): { position: number; codePoint: string } | undefined {
  let position = 0;
  for (const char of text) {
    position += 1;
    if (UNPRINTABLE.test(char)) return { position, codePoint: codePointOf(char) };
  }
  return undefined;
}

/**
 * `text` with each such character written as its code point, for a terminal or a log that must show
 * a name stored before names were checked (or from elsewhere) without being driven by it.
 *
 * @example printable("a\u001b[2Jb") // "a<U+001B>[2Jb"
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE_ALL, (char) => `<${codePointOf(char)}>`);
}

/**
 * `text` with each such character made a space, for a name Weft derives itself (a chat's title from
 * its first message, a document's from its first heading), which is never refused but must print safely.
 */
export function withoutUnprintable(text: string): string {
  return text.replace(UNPRINTABLE_ALL, " ");
}

function codePointOf(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}
