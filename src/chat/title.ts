import { withoutUnprintable } from "../printable.ts";

const TITLE_GRAPHEMES = 30;
const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * A chat's title from its first message: whitespace folded, cut at `TITLE_GRAPHEMES` characters
 * as a person counts them (grapheme clusters), so a Chinese character, an emoji or a flag is never
 * split, with "…" when cut.
 *
 * @example chatTitle("帮我查一下这个月的工资") // "帮我查一下这个月的工资"
 */
export function chatTitle(text: string, max = TITLE_GRAPHEMES): string {
  const folded = withoutUnprintable(text).replace(/\s+/g, " ").trim();
  const graphemes: string[] = [];
  for (const { segment } of segmenter.segment(folded)) {
    if (graphemes.length === max) return `${graphemes.join("").trimEnd()}…`;
    graphemes.push(segment);
  }
  return graphemes.join("") || "New chat";
}
