// Which of a question's terms the keyword index is matched by, and how. A term in many chunks costs
// the most to score (FTS5 scores every chunk on its posting list) and weighs the least (low IDF),
// so in a large index it is left out of the match; the normaliser still counts it
// (`keyword-index.ts`). The rules are written twice, in TypeScript and in SQL, so that the match can
// go out in the same statement as the count it depends on; `test/search/common-terms.test.ts` holds
// them together.

import type { KeywordStatistics } from "./keyword-statistics.ts";
import { isCjkCode } from "./units.ts";

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

/**
 * From this size on (where `COMMON_CHUNKS` starts to bind), a question's single characters that are
 * part of one of its matched two-character terms ("计" and "件" of "计件") count towards the score of
 * a chunk that another of its terms finds, but find no chunk alone. A chunk holding the pair holds
 * its characters, so they change no score; at 50k chunks they held 83% of the postings a question's
 * match scored, and a chunk holding only such scattered characters reached no measured top ten
 * (docs/benchmarks.md). No evaluation set is this large.
 */
export const COMPANIONS_FROM = COMMON_CHUNKS / COMMON_SHARE;

/** An FTS5 query that matches nothing (FTS5 has no empty query): a term and not that term. */
const MATCHES_NOTHING = '"zzzzzzzzzz" NOT "zzzzzzzzzz"';

const anyOf = (terms: string[]) => terms.map((t) => `"${t}"`).join(" OR ");

/**
 * The FTS5 queries for the matched `terms` of an index of `total` chunks: the chunks either
 * matches, each scored by BM25 over every term. In a large index with companion characters
 * (`COMPANIONS_FROM`), those holding another term and a companion, and those holding another term
 * and none (their BM25 sums the same terms, the companions adding nothing); else one query for
 * every term and one that matches nothing. Only the question's own pairs, the first `own` of
 * `terms`, make companions: a synonym's word ("价格" for "价") must not stop the question's own
 * character finding the chunks that hold it alone.
 */
export function matchQueries(terms: string[], total: number, own = terms.length): [string, string] {
  const pairs = terms.slice(0, own).filter((b) => b.length === 2 && isCjkCode(b.charCodeAt(0)));
  const companion = (t: string) => total >= COMPANIONS_FROM && t.length === 1 && pairs.some((b) => b.includes(t));
  const companions = terms.filter(companion);
  const anchors = terms.filter((t) => !companion(t));
  if (companions.length === 0 || anchors.length === 0)
    return [terms.length > 0 ? anyOf(terms) : MATCHES_NOTHING, MATCHES_NOTHING];
  return [`(${anyOf(anchors)}) AND (${anyOf(companions)})`, `(${anyOf(anchors)}) NOT (${anyOf(companions)})`];
}

/**
 * `matchQueries(matchedTerms(...))` in SQL: a statement of one row whose `first` and `second` are
 * the two FTS5 queries, given `wanted` a JSON array of the terms (the question's own `own` first),
 * `counting` one of the terms to count from the index's vocabulary, `kept` one of `[term, count]`
 * pairs for the others; `counts` is what it counted, as JSON `[term, count]` pairs (a term in no
 * chunk has none). The parameters are SQL expressions (`?7`); the table's name is hex, so safe
 * inside SQL.
 */
export function matchQueriesSql(
  table: string,
  { wanted, own, counting, kept }: Record<"wanted" | "own" | "counting" | "kept", string>,
) {
  const nothing = `'${MATCHES_NOTHING}'`;
  const cjk = (code: string) => `(${code} BETWEEN 13312 AND 40959 OR ${code} BETWEEN 63744 AND 64255)`;
  const anyOfSql = (where: string) => `group_concat(CASE WHEN ${where} THEN '"' || term || '"' END, ' OR ' ORDER BY position)`;
  return `WITH counted AS MATERIALIZED (SELECT term, doc FROM ${table}_vocab WHERE term IN (SELECT value FROM json_each(${counting}))),
      frequencies AS MATERIALIZED (
        SELECT w.key AS position, w.value AS term,
               coalesce(c.doc, (SELECT k.value ->> 1 FROM json_each(${kept}) k WHERE k.value ->> 0 = w.value), 0) AS df
          FROM json_each(${wanted}) w LEFT JOIN counted c ON c.term = w.value),
      size AS MATERIALIZED (SELECT COUNT(*) AS total FROM ${table}_docsize),
      bound AS (SELECT total, CASE WHEN total >= ${PRUNE_FROM} THEN min(${COMMON_SHARE} * total, ${COMMON_CHUNKS}) END AS most
                  FROM size),
      chosen AS MATERIALIZED (SELECT position, term, total FROM frequencies, bound
                  WHERE df > 0 AND (most IS NULL OR df <= most
                        OR NOT EXISTS (SELECT 1 FROM frequencies WHERE df > 0 AND df <= most))),
      kinds AS (SELECT position, term, total >= ${COMPANIONS_FROM} AND length(term) = 1
                       AND EXISTS (SELECT 1 FROM chosen b WHERE b.position < ${own} AND length(b.term) = 2
                                      AND ${cjk("unicode(b.term)")} AND instr(b.term, chosen.term) > 0) AS companion
                  FROM chosen),
      lists AS (SELECT ${anyOfSql("1")} AS every, ${anyOfSql("NOT companion")} AS anchors, ${anyOfSql("companion")} AS companions
                  FROM kinds)
    SELECT CASE WHEN anchors IS NULL OR companions IS NULL THEN coalesce(every, ${nothing})
                ELSE '(' || anchors || ') AND (' || companions || ')' END AS first,
           CASE WHEN anchors IS NULL OR companions IS NULL THEN ${nothing}
                ELSE '(' || anchors || ') NOT (' || companions || ')' END AS second,
           (SELECT json_group_array(json_array(term, doc)) FROM counted) AS counts
      FROM lists`;
}
