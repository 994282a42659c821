// Which of a question's terms a large keyword index is matched by. A term in many chunks costs the
// most to score (FTS5 scores every chunk on its posting list) and weighs the least (low IDF), so
// past a size it is left out of the match; the normaliser still counts it (`keyword-index.ts`).

import type { KeywordStatistics } from "./keyword-statistics.ts";

/** Indexes smaller than this are matched with every term: they are cheap to score whole. */
export const PRUNE_FROM = 1000;
/** A term in more than this share of the tenant's chunks is left out… */
const COMMON_SHARE = 0.3;
/**
 * …and so is one in more than this many, which bounds what each term costs to score at any size:
 * measured on 50k chunks, 20 ms less a search for nDCG@10 within 0.002 of matching them (docs/benchmarks.md).
 */
const COMMON_CHUNKS = 7500;

/**
 * The wanted terms a large index is matched by: those in the index, less the common ones, unless
 * every one is common (then all are matched, whatever it costs, rather than nothing).
 */
export function distinctiveTerms(wanted: string[], { df, total }: Pick<KeywordStatistics, "df" | "total">): string[] {
  const present = wanted.filter((t) => (df.get(t) ?? 0) > 0);
  const limit = Math.min(COMMON_SHARE * total, COMMON_CHUNKS);
  const distinctive = present.filter((t) => (df.get(t) as number) <= limit);
  return distinctive.length > 0 ? distinctive : present;
}

/**
 * The terms `distinctiveTerms` will give once the ones this isolate has not counted are, if each
 * of those is in the index and not common (as a term not met yet usually is: the common ones come
 * up in most questions). A match by them can go out before the count comes back.
 */
export function foreseenTerms(wanted: string[], known: Pick<KeywordStatistics, "df" | "total">): string[] {
  const df = new Map(known.df);
  for (const term of wanted) if (!df.has(term)) df.set(term, 1);
  return distinctiveTerms(wanted, { df, total: known.total });
}

/**
 * Whether a match by `foreseen` is the match by `terms` (both in the question's order): the same
 * terms, bar some in no chunk at all. Such a term adds exactly 0 to every chunk's BM25, so the
 * rows, their scores and their order are the same.
 */
export function sameMatch(terms: string[], foreseen: string[] | null, df: ReadonlyMap<string, number>): boolean {
  if (foreseen === null) return false;
  const present = foreseen.filter((t) => (df.get(t) ?? 0) > 0);
  return present.length === terms.length && present.every((t, i) => t === terms[i]);
}
