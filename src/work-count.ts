// Characters visited by the text parsers (chunker, HTML-to-text, headings, matcher), summed per
// isolate. A count of work, unlike a clock, is the same on every machine, so a test can check that
// doubling an input at most doubles the work (see test/search/linear-work.test.ts).
let visited = 0;

/** Adds `characters` to the work count; parsers call it once per pass over a piece of text. */
export function countWork(characters: number): void {
  visited += characters;
}

/** The work count so far; compare two readings to measure one call. */
export function workCount(): number {
  return visited;
}
