import { countWork } from "../work-count.ts";

export interface Heading {
  level: number;
  title: string;
}

const SPACE = /\s/;
const isSpace = (char: string | undefined) => char !== undefined && SPACE.test(char);

/**
 * A Markdown ATX heading (`## Title`, `## Title ##`) or null. Scanned by hand in one pass: the
 * regex it replaces (`^(#{1,6})\s+(.+?)\s*#*\s*$`) had adjacent quantifiers over the same spaces
 * and took cubic time on a heading line of spaces. A closing `#` run counts only after a space
 * (CommonMark), so "## Learn C#" keeps its '#'.
 */
export function parseHeading(line: string): Heading | null {
  let level = 0;
  while (level < line.length && level < 7 && line[level] === "#") level++;
  countWork(level + 1);
  if (level === 0 || level > 6 || !isSpace(line[level])) return null;
  let end = line.length;
  while (end > level && isSpace(line[end - 1])) end--;
  let closing = end;
  while (closing > level && line[closing - 1] === "#") closing--;
  if (closing < end && isSpace(line[closing - 1])) end = closing;
  countWork(line.length);
  const title = line.slice(level, end).trim();
  return title ? { level, title } : null;
}

/** The first level-1 heading's title in Markdown-flavoured text, if any. */
export function firstTitle(text: string): string | undefined {
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    if (text[start] === "#") {
      const heading = parseHeading(text.slice(start, end));
      if (heading?.level === 1) return heading.title;
    }
    countWork(end - start + 1);
    start = end + 1;
  }
  return undefined;
}
