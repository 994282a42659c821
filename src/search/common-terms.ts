// Which of a question's terms the keyword index is matched by. A term in many chunks costs the
// most to score (FTS5 scores every chunk on its posting list) and weighs the least (low IDF), so
// in a large index it is left out of the match; the normaliser still counts it (`keyword-index.ts`).
// The rule is written twice, in TypeScript and in SQL, so that the match can go out in the same
// statement as the count it depends on; `test/search/common-terms.test.ts` holds them together.

import type { KeywordStatistics } from "./keyword-statistics.ts";

/** Indexes smaller than this are matched with every term: they are cheap to score whole. */
export const PRUNE_FROM = 1000;
/** In a larger one, a term in more than this share of the tenant's chunks is left out… */
const COMMON_SHARE = 0.3;
/**
 * …and so is one in more than this many, which bounds what each term costs to score at any size:
 * measured on 50k chunks, about 20 ms less a search for nDCG@10 within 0.002 of matching them
 * (docs/benchmarks.md).
 */
const COMMON_CHUNKS = 7500;

/**
 * The wanted terms the index is matched by, in the question's order: those in the index, less the
 * common ones in a large index, unless every one is common (then all are matched, whatever it
 * costs, rather than nothing). A term in no chunk is left out: it adds exactly 0 to every BM25.
 */
export function matchedTerms(wanted: string[], { df, total }: Pick<KeywordStatistics, "df" | "total">): string[] {
  const present = wanted.filter((t) => (df.get(t) ?? 0) > 0);
  if (total < PRUNE_FROM) return present;
  const most = Math.min(COMMON_SHARE * total, COMMON_CHUNKS);
  const distinctive = present.filter((t) => (df.get(t) as number) <= most);
  return distinctive.length > 0 ? distinctive : present;
}

/** An FTS5 query that matches nothing (FTS5 has no empty query): a term and not that term. */
const NOTHING = `'"zzzzzzzzzz" NOT "zzzzzzzzzz"'`;

/**
 * `matchedTerms` in SQL, as the FTS5 query string (`"a" OR "b"`) it gives: `wanted` a JSON array
 * of the terms, `counting` one of the terms to count from the index's vocabulary, `kept` one of
 * `[term, count]` pairs for the others. The parameters are SQL expressions (`?7`); the table's
 * name is hex, so safe inside SQL.
 */
export function matchedTermsSql(table: string, { wanted, counting, kept }: Record<"wanted" | "counting" | "kept", string>) {
  return `(WITH counted AS MATERIALIZED (SELECT term, doc FROM ${table}_vocab WHERE term IN (SELECT value FROM json_each(${counting}))),
      frequencies AS MATERIALIZED (
        SELECT w.key AS position, w.value AS term,
               coalesce(c.doc, (SELECT k.value ->> 1 FROM json_each(${kept}) k WHERE k.value ->> 0 = w.value), 0) AS df
          FROM json_each(${wanted}) w LEFT JOIN counted c ON c.term = w.value),
      bound AS (SELECT CASE WHEN COUNT(*) >= ${PRUNE_FROM} THEN min(${COMMON_SHARE} * COUNT(*), ${COMMON_CHUNKS}) END AS most
                  FROM ${table}_docsize),
      chosen AS (SELECT position, term FROM frequencies, bound
                  WHERE df > 0 AND (most IS NULL OR df <= most
                        OR NOT EXISTS (SELECT 1 FROM frequencies WHERE df > 0 AND df <= most)))
    SELECT coalesce(group_concat('"' || term || '"', ' OR ' ORDER BY position), ${NOTHING}) FROM chosen)`;
}
