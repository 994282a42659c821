import { sha256Hex } from "../sha256.ts";
import { type ChunkRecord, chunkRecordColumns, keepChunk, type OmittedChunk } from "./chunk-record.ts";
import { matchedTerms, matchQueries, matchQueriesSql, PRUNE_FROM } from "./common-terms.ts";
import {
  forgetKeywordStatistics,
  type KeywordStatistics,
  keptStatistics,
  readStatistics,
  type StatisticsRow,
  statisticsStatement,
} from "./keyword-statistics.ts";
import { queryTerms, queryText, terms } from "./segment.ts";
import type { Synonyms } from "./synonyms.ts";

/** Query terms beyond this are dropped: a longer OR query costs more and ranks no better. */
const MAX_QUERY_TERMS = 64;
/** Matches beyond `limit` read before the scope is checked (see `keywordQuery`). */
const SCOPE_MARGIN = 50;

export interface KeywordMatch {
  id: string;
  /** BM25 as FTS5 computes it (k1 1.2, b 0.75), positive. */
  bm25: number;
  /** 1 − e^(−BM25 / the query's total IDF): 0.63 for a chunk matching every query term once at average length. */
  score: number;
  /** The chunk, unless the search reads it in the same batch (`readElsewhere`). */
  chunk?: ChunkRecord | undefined;
}

/**
 * A keyword search in two halves, so that a search can send its statements in the batch it sends
 * anyway: the statements, then what reads their results (with more round trips where the index
 * changed since this isolate kept its counts, or the scope holds few of the best matches).
 */
export interface KeywordQuery {
  statements: D1PreparedStatement[];
  /** Reads the statements' results; `held` are the chunks the caller has from the same batch. */
  read(results: (D1Result | undefined)[], held: ReadonlySet<string>): Promise<KeywordMatch[]>;
}

/**
 * The tenant's FTS5 table name. One table per tenant keeps BM25's document frequencies to that
 * workshop's own text and lets no query scan another's rows. Hex only, so safe inside SQL.
 */
export async function keywordTable(tenantId: string): Promise<string> {
  return `fts_${(await sha256Hex(tenantId)).slice(0, 16)}`;
}

// Keyword tables are created once and never dropped, so an isolate remembers the ones it has seen.
const knownTables = new Set<string>();

/**
 * Forgets the keyword tables this isolate has seen, for a runtime whose storage was emptied under
 * it: the test suite empties every database between files while the isolate lives on.
 */
export function forgetKeywordTables(): void {
  knownTables.clear();
  forgetKeywordStatistics();
}

/** Creates the tenant's keyword index (and its vocabulary view) if it does not exist. */
export async function ensureKeywordTable(db: D1Database, table: string): Promise<void> {
  if (knownTables.has(table)) return;
  await db.batch(createKeywordTableStatements(db, table));
  knownTables.add(table);
}

/**
 * The statements that create a keyword index where it does not exist, whatever this isolate
 * remembers: for a database that has not had it yet (a workshop's new shard, when it moves).
 */
export function createKeywordTableStatements(db: D1Database, table: string): D1PreparedStatement[] {
  return [
    db.prepare(`CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING fts5(terms, tokenize = 'unicode61 remove_diacritics 0')`),
    db.prepare(`CREATE VIRTUAL TABLE IF NOT EXISTS ${table}_vocab USING fts5vocab(${table}, 'row')`),
  ];
}

/** What the keyword index stores for a chunk: its terms, space separated (FTS5 splits on spaces). */
export function indexedTerms(text: string): string {
  return terms(text).join(" ");
}

/**
 * Indexes chunks under their own rowids. `rows` is a JSON array of `{ id, terms }`; the statement
 * runs after the chunks' insert in the same batch. `OR REPLACE` (safe here: an index row has no
 * children) overwrites a row left behind for a reused chunk rowid, as local state seeded by older
 * versions (which deleted chunks by cascade) holds, instead of failing every later upload.
 */
export function insertTermsStatement(db: D1Database, table: string, rows: string): D1PreparedStatement {
  return db
    .prepare(
      `INSERT OR REPLACE INTO ${table} (rowid, terms) SELECT c.rowid, j.value ->> '$.terms' FROM json_each(?1) j JOIN chunks c ON c.id = j.value ->> '$.id'`,
    )
    .bind(rows);
}

/**
 * Removes a document's rows from the keyword index; must run before its chunks are deleted. With
 * `generation`, only while that is still the document's generation (see `ingestDocument`).
 */
export function deleteDocumentTermsStatement(
  db: D1Database,
  table: string,
  documentId: string,
  generation?: number,
): D1PreparedStatement {
  const sql = `DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM chunks WHERE document_id = ?1)`;
  if (generation === undefined) return db.prepare(sql).bind(documentId);
  return db.prepare(`${sql} AND EXISTS (SELECT 1 FROM documents WHERE id = ?1 AND generation = ?2)`).bind(documentId, generation);
}

async function tableExists(db: D1Database, table: string): Promise<boolean> {
  if (knownTables.has(table)) return true;
  return noteKeywordTable(table, await tableStatement(db, table).all());
}

const tableStatement = (db: D1Database, table: string) =>
  db.prepare("SELECT 1 AS ok FROM sqlite_master WHERE type = 'table' AND name = ?1").bind(table);

/**
 * Whether the tenant's keyword table exists, for a batch the caller makes anyway: null when this
 * isolate knows it does, else the statement and the reader of its result (which remembers a table
 * found, so `keywordQuery` asks no more).
 */
export async function keywordTableCheck(
  db: D1Database,
  tenantId: string,
): Promise<{ statement: D1PreparedStatement; read: (result: D1Result | undefined) => boolean } | null> {
  const table = await keywordTable(tenantId);
  if (knownTables.has(table)) return null;
  return { statement: tableStatement(db, table), read: (result) => noteKeywordTable(table, result) };
}

function noteKeywordTable(table: string, result: D1Result | undefined): boolean {
  const found = (result?.results.length ?? 0) > 0;
  if (found) knownTables.add(table);
  return found;
}

/**
 * Whether FTS5's tokenizer surely reads a term as one token equal to itself: lowercase ASCII
 * letters and digits, or CJK ideographs of Unicode 3.0 or older. SQLite's `unicode61` knows
 * Unicode 6.1, so a character that is a letter to JavaScript today may be a separator to it: it
 * reads the New Tai Lue word ᦵᦋᦲᦂ as ᦋ and ᦂ, a query for which matches chunks that the index holds
 * no ᦵᦋᦲᦂ in. Such a term must be counted (its count is 0) and left out of the match.
 */
const isOneToken = (term: string) => /^(?:[a-z0-9]+|[\u3400-\u4db5\u4e00-\u9fa5]+)$/.test(term);

/**
 * BM25 search over the tenant's chunks in the given knowledge bases (all of the tenant's when
 * `kbIds` is null), each match with its chunk unless `readElsewhere` holds its id. The score
 * divides BM25 by the query's total IDF (what a chunk matching every query term once, at average
 * length, gets) and maps it smoothly into [0, 1), so it reads the same for every query and keeps
 * BM25's order (a hard cap at 1 would tie the best chunks; measured, it cost 0.02 nDCG). Null when
 * there is nothing to match.
 */
export async function keywordQuery({
  db,
  tenantId,
  query,
  kbIds,
  limit,
  synonyms,
  readElsewhere,
}: {
  db: D1Database;
  tenantId: string;
  query: string;
  kbIds: string[] | null;
  limit: number;
  synonyms?: Synonyms | undefined;
  readElsewhere: ReadonlySet<string>;
}): Promise<KeywordQuery | null> {
  const own = [...new Set(queryTerms(query))].slice(0, MAX_QUERY_TERMS);
  if (own.length === 0 || kbIds?.length === 0) return null;
  // Synonyms widen the match but not the normaliser: a chunk using the query's words or their
  // synonyms reads as the same share of the query.
  const extra = (synonyms?.expansionTerms(queryText(query)) ?? []).filter((t) => !own.includes(t));
  const wanted = [...own, ...extra].slice(0, MAX_QUERY_TERMS);
  const table = await keywordTable(tenantId);
  if (!(await tableExists(db, table))) return null;
  const scope = kbIds && JSON.stringify(kbIds);
  // The batch's match reads only the id of a chunk the search reads in the same batch, and of one
  // beyond the `limit` kept. A later round trip leaves out only a chunk the batch did return
  // (`held`): one committed after the batch is in neither read.
  const elsewhere = JSON.stringify([...readElsewhere]);
  // The best `?4` of the chunks either FTS5 query matches (`matchQueries`), each query's sorted
  // apart: `arm` gives one query's best, given the query as an SQL expression.
  const bestOfBoth = (arm: (query: string) => string, [first, second]: [string, string]) =>
    `SELECT * FROM (${arm(first)}) UNION ALL SELECT * FROM (${arm(second)}) ORDER BY bm25, rowid LIMIT ?4`;
  // The whole table's best matches first, then only those joined to their chunks and checked
  // against the scope: joining every match before sorting cost about as much again as the match
  // (ties go by rowid either way, the order FTS5 yields rows in). The table is the tenant's, so a
  // row out of scope is another knowledge base's (or one left behind by an older version); while
  // `limit` of the first `limit + SCOPE_MARGIN` are in scope, they are the scope's best `limit`,
  // else `scopedStatement` sorts the scope's own matches.
  // The queries are given, or made in the statement itself from the counts it reads
  // (`matchQueriesSql`), so that the match needs no round trip of its own after the count.
  type MatchBy = { queries: [string, string] } | { counting: string[]; kept: [string, number][] };
  const bestStatement = (by: MatchBy, omitted: string) => {
    const chosen = "counting" in by;
    const arm = (query: string) =>
      `SELECT rowid, bm25(${table}) AS bm25 FROM ${table} WHERE ${table} MATCH ${query} ORDER BY bm25(${table}), rowid LIMIT ?4`;
    const sql = `${chosen ? `WITH matched AS MATERIALIZED (SELECT * FROM (${matchQueriesSql(table, { wanted: "?1", own: "?9", counting: "?7", kept: "?8" })})) ` : ""}
      SELECT ${chunkRecordColumns(
        "c.id IN (SELECT value FROM json_each(?5)) OR row_number() OVER (PARTITION BY c.id IS NULL ORDER BY best.bm25, best.rowid) > ?6",
      )}, -best.bm25 AS bm25,
         ${chosen ? "CASE WHEN row_number() OVER (ORDER BY best.bm25, best.rowid) = 1 THEN (SELECT counts FROM matched) END" : "NULL"} AS counts
         FROM (${bestOfBoth(arm, chosen ? ["(SELECT first FROM matched)", "(SELECT second FROM matched)"] : ["?1", "?7"])}) best
         LEFT JOIN chunks c ON c.rowid = best.rowid AND c.tenant_id = ?2
               AND (?3 IS NULL OR c.kb_id IN (SELECT value FROM json_each(?3)))
         LEFT JOIN documents d ON d.id = c.document_id
        ORDER BY best.bm25, best.rowid`;
    const common = [tenantId, scope, limit + SCOPE_MARGIN, omitted, limit] as const;
    return chosen
      ? db.prepare(sql).bind(JSON.stringify(wanted), ...common, JSON.stringify(by.counting), JSON.stringify(by.kept), own.length)
      : db.prepare(sql).bind(by.queries[0], ...common, by.queries[1]);
  };
  const scopedStatement = ([first, second]: [string, string]) => {
    const arm = (query: string) =>
      `SELECT ${table}.rowid AS rowid, bm25(${table}) AS bm25
         FROM ${table} JOIN chunks c ON c.rowid = ${table}.rowid JOIN documents d ON d.id = c.document_id
        WHERE ${table} MATCH ${query} AND c.tenant_id = ?2 AND (?3 IS NULL OR c.kb_id IN (SELECT value FROM json_each(?3)))
        ORDER BY bm25(${table}), ${table}.rowid LIMIT ?4`;
    return db
      .prepare(
        `SELECT ${chunkRecordColumns()}, -best.bm25 AS bm25
           FROM (${bestOfBoth(arm, ["?1", "?5"])}) best JOIN chunks c ON c.rowid = best.rowid JOIN documents d ON d.id = c.document_id
          ORDER BY best.bm25, best.rowid`,
      )
      .bind(first, tenantId, scope, limit, second);
  };
  const inScope = async (queries: [string, string], best: MatchRow[]) => {
    const found = best.filter((row): row is ScopedRow => row.id !== null);
    if (found.length >= limit || best.length < limit + SCOPE_MARGIN) return found.slice(0, limit);
    return (await scopedStatement(queries).all<ScopedRow>()).results;
  };
  // The statistics and the match go in the same round trip. Where this isolate knows what the
  // match is made of, it makes the queries itself: a small index is matched by every term, and a
  // large one's kept counts say which terms (`matchedTerms`). Otherwise the match counts the terms
  // this isolate has not counted yet (`keyword-statistics.ts`) as it goes, and makes its queries by
  // the same rules (`matchQueriesSql`); the queries a statement makes cost it more than the match
  // itself on a small index (2 ms against 0.3 ms of SQLite's time on the demo's 94 chunks). Where
  // what the isolate knew turns out stale (the index grew large, or changed since the counts were
  // kept), the search counts every term again and matches again: which match counts depends on the
  // index alone, never on what this isolate has seen, as calibration reads the whole candidate list.
  const ownMatchQueries = (terms: string[], total: number) =>
    matchQueries(terms, total, terms.filter((t) => own.includes(t)).length);
  const known = keptStatistics(tenantId);
  const small = known !== undefined && known.total < PRUNE_FROM && wanted.every(isOneToken);
  const unknown = known ? wanted.filter((t) => !known.df.has(t)) : wanted;
  const kept = wanted.flatMap((t): [string, number][] => {
    const count = known?.df.get(t);
    return count === undefined ? [] : [[t, count]];
  });
  // A small index's match needs no counts (a term in no chunk adds exactly 0 to every BM25, if FTS5
  // reads it as itself: `isOneToken`), so the statistics statement counts the terms for the
  // normaliser beside the match: those the isolate has not kept, or every one if the index has
  // changed since.
  const given: [string, string] | null = small
    ? matchQueries(wanted, known.total, own.length)
    : known && unknown.length === 0
      ? ownMatchQueries(matchedTerms(wanted, known), known.total)
      : null;
  // Else the statistics statement reads the index's size and stamp; the match counts the unknown
  // terms and reports them on its first row, so no term is counted twice.
  const statements = [
    small ? statisticsStatement(db, table, unknown, { stamp: known.stamp, terms: wanted }) : statisticsStatement(db, table, []),
    bestStatement(given ? { queries: given } : { counting: unknown, kept }, elsewhere),
  ];
  const read = async ([first, direct]: (D1Result | undefined)[], heldIds: ReadonlySet<string>): Promise<KeywordMatch[]> => {
    const held = JSON.stringify([...heldIds]);
    const best = (direct?.results ?? []) as MatchRow[];
    const reported = best[0]?.counts ? (JSON.parse(best[0].counts) as [string, number][]) : [];
    const counts = [
      ...((first?.results ?? []) as StatisticsRow[]),
      ...reported.map(([term, doc]) => ({ term, doc, stamp: null })),
    ];
    const head = counts.find((r) => r.term === null);
    // The kept counts are the index's own if its stamp is theirs: not stale (the index changed
    // since they were taken) and not of another index than the one the batch ran on (another search
    // may have kept newer ones since, which would pass a test of the kept stamp alone).
    const keptHold = kept.length === 0 || head?.stamp === known?.stamp;
    // Without a match row the batch's counts are unknown, and nothing is kept of them.
    const learnt = small ? (keptHold ? unknown : wanted) : !given && best.length > 0 ? unknown : [];
    let statistics = readStatistics({ tenantId, rows: counts, terms: learnt });
    // A small index's match holds while the index is still small, whatever the counts; another
    // holds if the kept counts it was made from do. Then the terms are counted from the kept ones
    // and the batch's.
    const holds = small ? statistics.total < PRUNE_FROM : keptHold;
    if (holds && keptHold && kept.length > 0)
      statistics = { ...statistics, df: new Map([...kept, ...learntCounts(statistics, learnt)]) };
    if (holds && best.length === 0) return [];
    const counted = holds && wanted.every((t) => statistics.df.has(t));
    if (!counted) {
      const { results } = await statisticsStatement(db, table, wanted).all<StatisticsRow>();
      statistics = readStatistics({ tenantId, rows: results, terms: wanted });
    }
    const { df, total } = statistics;
    const terms = matchedTerms(wanted, statistics);
    if (terms.length === 0) return [];
    const queries = counted && given ? given : ownMatchQueries(terms, total);
    const matched = counted ? best : ((await bestStatement({ queries }, held).all()).results as MatchRow[]);
    const rows = await inScope(queries, matched);
    // FTS5's own IDF, floor included, so the normaliser matches the scores it divides; it counts
    // every query term, so a chunk missing the common ones still reads as a partial match.
    const idf = (n: number) => Math.max(Math.log((total - n + 0.5) / (n + 0.5)), 1e-6);
    const queryIdf = own.reduce((sum, term) => sum + idf(df.get(term) ?? 0), 0);
    return rows.map(({ bm25, counts: _, ...chunk }) => ({
      id: chunk.id,
      bm25,
      score: 1 - Math.exp(-bm25 / queryIdf),
      chunk: chunk.content === null ? undefined : keepChunk(chunk as ChunkRecord),
    }));
  };
  return { statements, read };
}

/** The counts of `terms` among `statistics`' (0 for one counted in no chunk). */
function learntCounts(statistics: KeywordStatistics, terms: string[]): [string, number][] {
  return terms.map((t) => [t, statistics.df.get(t) ?? 0]);
}

/**
 * A row of the best matches: the chunk's columns are null for a match outside the scope, and all
 * but its id for one the batch leaves out.
 */
type ScopedRow = (ChunkRecord | OmittedChunk) & { bm25: number; counts?: string | null };
type MatchRow = ScopedRow | ({ [K in keyof ChunkRecord]: null } & { bm25: number; counts?: string | null });
