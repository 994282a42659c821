// What BM25 and the pruning of common terms read of a tenant's keyword index: its size and the
// document frequency of each query term. Counting a term's documents reads its whole posting list
// (about 5 ms for a question's terms at 50k chunks, most of it for the commonest), so an index's
// frequencies are kept per isolate, tagged with two records FTS5 keeps in its `_data`
// table: the structure record (row 10), which every write rewrites (it adds a segment and counts
// it; Weft never turns on `secure-delete`, which edits segments in place), and the averages record
// (row 1: the row and token counts, which every insert and delete moves). A kept frequency is the
// one a fresh count would give.

import { LruMap } from "../lru-map.ts";

/** An index's size and the frequencies of the terms read, as of its `stamp`. */
export interface KeywordStatistics {
  stamp: string;
  total: number;
  df: Map<string, number>;
}

// Kept per tenant, for an index of any size: even on the demo's 94 chunks, counting a question's
// dozen terms cost a search about 0.5 ms of the local D1's time. What bounds the memory is the
// terms kept, 320,000 in all (about 16 MB at most); a tenant keeps the terms of the questions asked
// of it, a few dozen for most, so a deployment's workshops, up to 4,096, fit. With 16 tenants at
// most, a deployment of a thousand workshops counted afresh on nearly every search.
const KEPT_TERMS_IN_ALL = 320_000;
const kept = new LruMap<string, KeywordStatistics>(4096, { weigh: (s) => s.df.size, budget: KEPT_TERMS_IN_ALL });
/** Terms kept per tenant; beyond it the tenant starts again (about a megabyte at most). */
const KEPT_TERMS = 20_000;

/** Forgets every kept statistic (for the test suite, which empties the databases under the isolate). */
export function forgetKeywordStatistics(): void {
  kept.clear();
}

/** The statistics this isolate keeps for the tenant's index, if any. */
export function keptStatistics(tenantId: string): KeywordStatistics | undefined {
  return kept.get(tenantId);
}

/**
 * Reads the index's size, its stamp and the frequencies of `terms`, in one statement
 * (each statement costs a round trip's share even in a batch); with `unlessAt`, the frequencies of
 * `terms` only while the index's stamp is `unlessAt.stamp`, else of `unlessAt.terms` (a search
 * counts only the terms it has no kept count for, unless the index has changed since they were
 * kept). The size is FTS5's own row count, the one its BM25 takes its IDF from; counting the
 * tenant's chunks gave the same number at 250 times the cost (5.7 against 0.02 ms at 50k chunks).
 * The count is a subquery of its own: SQLite counts a table without reading its rows only in a
 * query that asks for nothing else, and beside the stamp it read all 50,000 (1.1 against 0.06 ms
 * for the statement).
 */
export function statisticsStatement(
  db: D1Database,
  table: string,
  terms: string[],
  unlessAt?: { stamp: string; terms: string[] },
): D1PreparedStatement {
  const counted = unlessAt ? "CASE WHEN (SELECT stamp FROM head) IS ?2 THEN ?1 ELSE ?3 END" : "?1";
  const statement = db.prepare(
    `WITH head AS MATERIALIZED (
       SELECT (SELECT COUNT(*) FROM ${table}_docsize) AS doc,
              (SELECT group_concat(hex(block), '.') FROM (SELECT block FROM ${table}_data WHERE id IN (1, 10) ORDER BY id)) AS stamp)
     SELECT NULL AS term, doc, stamp FROM head
     UNION ALL SELECT term, doc, NULL FROM ${table}_vocab WHERE term IN (SELECT value FROM json_each(${counted}))`,
  );
  return unlessAt
    ? statement.bind(JSON.stringify(terms), unlessAt.stamp, JSON.stringify(unlessAt.terms))
    : statement.bind(JSON.stringify(terms));
}

/** A row of a `statisticsStatement`: the head (size and stamp, no term), or a term's count. */
export interface StatisticsRow {
  term: string | null;
  doc: number;
  stamp: string | null;
}

/**
 * The statistics in a `statisticsStatement`'s rows, and counts of `terms` made elsewhere (a term
 * in no chunk has no row: 0), merged into the kept ones when the index has not changed since, and
 * kept.
 */
export function readStatistics({
  tenantId,
  rows,
  terms,
}: {
  tenantId: string;
  rows: StatisticsRow[];
  terms: string[];
}): KeywordStatistics {
  const head = rows.find((r) => r.term === null);
  const stamp = head?.stamp ?? "";
  const total = head?.doc ?? 0;
  const before = kept.get(tenantId);
  const df =
    before && before.stamp === stamp && before.df.size + terms.length <= KEPT_TERMS ? before.df : new Map<string, number>();
  for (const term of terms) df.set(term, 0);
  for (const row of rows) if (row.term !== null) df.set(row.term, row.doc);
  const statistics = { stamp, total, df };
  kept.set(tenantId, statistics);
  return statistics;
}
