// The `@` knowledge-base picker's text rules, kept free of the DOM so the Worker tests can run them.

/** Longest text after `@` still read as a query; past it the `@` is just text (and the scan stays short). */
export const MAX_MENTION_QUERY = 40;

export interface MentionMatch {
  /** Index of the `@` in the text. */
  start: number;
  /** What was typed between the `@` and the caret. */
  query: string;
}

const WHITESPACE = /\s/;

/**
 * The `@query` the caret is in, if any: an `@` at the start of the text or after whitespace, with no
 * whitespace between it and the caret. Looks back at most `MAX_MENTION_QUERY` characters, so the
 * work per keystroke does not grow with the text.
 *
 * @example findMention("问 @质量", 5) // { start: 2, query: "质量" }
 */
export function findMention(text: string, caret: number): MentionMatch | null {
  const end = Math.min(Math.max(caret, 0), text.length);
  const floor = Math.max(0, end - MAX_MENTION_QUERY - 1);
  for (let i = end - 1; i >= floor; i--) {
    const ch = text[i] as string;
    if (WHITESPACE.test(ch)) return null;
    if (ch === "@" || ch === "＠") {
      if (i > 0 && !WHITESPACE.test(text[i - 1] as string)) return null;
      return { start: i, query: text.slice(i + 1, end) };
    }
  }
  return null;
}

/** Up to `limit` items whose name contains `query` (case-insensitive), leaving out those already chosen. */
export function filterByName<T extends { id: string; name: string }>(
  items: readonly T[],
  query: string,
  chosen: ReadonlySet<string>,
  limit = 10,
): T[] {
  const needle = query.toLocaleLowerCase();
  const out: T[] = [];
  for (const item of items) {
    if (chosen.has(item.id) || !item.name.toLocaleLowerCase().includes(needle)) continue;
    out.push(item);
    if (out.length === limit) break;
  }
  return out;
}

/** The text with the `@query` between `start` and `caret` removed, and where the caret goes. */
export function removeMention(text: string, start: number, caret: number): { text: string; caret: number } {
  return { text: text.slice(0, start) + text.slice(caret), caret: start };
}
