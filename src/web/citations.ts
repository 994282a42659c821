// An answer's citations as links: `[n]` after a quoted sentence and the `[n] title › heading` line
// under "来源：" / "Sources:" open the passage the reply's sources (a `data-sources` part) name.
import type { CitedSource } from "../shapes.ts";

/** The fragment a citation link carries: `#cite-2`. */
export const CITE_PREFIX = "#cite-";

// A source line of an answer: "- [1] 锦绣制衣系统使用手册 › 新建订单" (the list marker optional).
const SOURCE_LINE = /^(\s*(?:[-*]\s+)?)\[(\d{1,2})\] (.+?)\s*$/;
// A marker after a quoted sentence, not a Markdown link's own text ("[1](…)") nor a footnote ("[^1]").
const MARKER = /\[(\d{1,2})\](?!\()/g;
const SENTENCE = /[^。！？!?\n]+[。！？!?]?/g;

/** Which source each `[n]` of an answer names: its source lines matched to the sources by their citation. */
export function citedSources(text: string, sources: CitedSource[]): Map<number, CitedSource> {
  // Two passages under one citation (an FAQ answered in two bases): the better-ranked, listed first.
  const byCitation = new Map<string, CitedSource>();
  for (const source of sources) if (!byCitation.has(source.citation)) byCitation.set(source.citation, source);
  const cited = new Map<number, CitedSource>();
  for (const line of text.split("\n")) {
    const match = SOURCE_LINE.exec(line);
    const source = match?.[3] ? byCitation.get(match[3]) : undefined;
    if (match && source) cited.set(Number(match[2]), source);
  }
  return cited;
}

// Brackets and backslashes in a link's text would end or escape it.
function linkText(text: string): string {
  return text.replace(/[\\[\]]/g, (c) => `\\${c}`);
}

/** The answer with each citation of a known source as a Markdown link to `#cite-n`. */
export function linkCitations(text: string, cited: Map<number, CitedSource>): string {
  if (cited.size === 0) return text;
  const link = (n: number, shown: string) => `[${linkText(shown)}](${CITE_PREFIX}${n})`;
  return text
    .split("\n")
    .map((line) => {
      const source = SOURCE_LINE.exec(line);
      if (source && cited.has(Number(source[2]))) {
        return `${source[1]}${link(Number(source[2]), `[${source[2]}] ${source[3]}`)}`;
      }
      return line.replace(MARKER, (marker, n: string) => (cited.has(Number(n)) ? link(Number(n), marker) : marker));
    })
    .join("\n");
}

/**
 * The sentences an answer quotes from source `n`: those just before each `[n]`, back to the line's
 * start or the marker before. The panel marks them in the passage so the cited part is in view.
 */
export function quotedFrom(text: string, n: number): string[] {
  const quotes: string[] = [];
  for (const line of text.split("\n")) {
    if (SOURCE_LINE.test(line)) continue;
    let from = 0;
    for (const match of line.matchAll(MARKER)) {
      const before = line.slice(from, match.index);
      from = match.index + match[0].length;
      if (Number(match[1]) !== n) continue;
      for (const sentence of before.matchAll(SENTENCE)) {
        const quote = sentence[0].trim();
        if (quote.length >= 4 && !quotes.includes(quote)) quotes.push(quote);
      }
    }
  }
  return quotes;
}

/** A passage's text cut into pieces, those the answer quotes marked, in order. */
export function markQuotes(content: string, quotes: string[]): { text: string; quoted: boolean }[] {
  const spans: { from: number; to: number }[] = [];
  for (const quote of quotes) {
    const at = content.indexOf(quote);
    if (at >= 0 && !spans.some((s) => at < s.to && at + quote.length > s.from)) spans.push({ from: at, to: at + quote.length });
  }
  spans.sort((a, b) => a.from - b.from);
  const pieces: { text: string; quoted: boolean }[] = [];
  let at = 0;
  for (const span of spans) {
    if (span.from > at) pieces.push({ text: content.slice(at, span.from), quoted: false });
    pieces.push({ text: content.slice(span.from, span.to), quoted: true });
    at = span.to;
  }
  if (at < content.length) pieces.push({ text: content.slice(at), quoted: false });
  return pieces;
}
