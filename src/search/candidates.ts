import type { SearchBackends } from "./backends.ts";
import { type ChunkRecord, chunksByIds } from "./chunk-record.ts";
import { type KeywordMatch, keywordQuery, keywordTableCheck } from "./keyword-index.ts";
import { lastScope, rememberScope, sameScope, scopeFrom, scopeStatement, searchScope, type TenantScope } from "./scope.ts";
import { compiledSynonyms, synonymRowStatement } from "./synonym-store.ts";
import { Synonyms } from "./synonyms.ts";
import type { VectorMatch } from "./vector-index.ts";

/** What of a search request decides its candidates. */
export interface CandidateRequest {
  query: string;
  kbIds?: string[] | undefined;
  mode: "hybrid" | "vector" | "keyword";
}

/** What a search ranks: each retriever's matches, and the chunk of every match in scope. */
export interface Candidates {
  synonyms: Synonyms;
  keyword: KeywordMatch[];
  vector: VectorMatch[];
  /** The chunks of the matches, by id; a vector match whose chunk is gone or out of scope has none. */
  chunks: Map<string, ChunkRecord>;
}

/**
 * Each retriever's best `pool` matches in the search's scope, with their chunks, in one D1 round
 * trip where it can (a keyword index changed since this isolate counted its terms takes more, as
 * does a scope holding few of the best matches). The scope and the synonyms a search needs before
 * that round trip (the vector query filters by the knowledge bases, the keyword match widens by
 * the synonyms) are the ones this isolate last read for the workshop; the round trip reads them
 * again, and a search that finds they moved runs once more on what it read. A workshop this
 * isolate has not searched yet costs one round trip more (`firstRead`).
 */
export async function gatherCandidates({
  db,
  backends,
  tenantId,
  request,
  pool,
}: {
  db: D1Database;
  backends: SearchBackends;
  tenantId: string;
  request: CandidateRequest;
  pool: number;
}): Promise<Candidates> {
  let expected = lastScope(tenantId) ?? (await firstRead(db, tenantId));
  for (let attempt = 1; ; attempt++) {
    const { scope, read } = await gatherRound({ db, backends, tenantId, request, pool, expected });
    rememberScope(tenantId, scope);
    // A scope that moves again under the second round is as current as any a search could read.
    if (sameScope(scope, expected) || attempt === 2) return read();
    expected = scope;
  }
}

/**
 * What a search needs before its round trip, for a workshop this isolate has not searched yet, in
 * one round trip: its scope, its synonym row (compiled and kept) and whether its keyword table
 * exists (remembered). Read one after another they were three, which with many workshops, each
 * searched now and then, made most searches cost four round trips instead of one.
 */
async function firstRead(db: D1Database, tenantId: string): Promise<TenantScope> {
  const table = await keywordTableCheck(db, tenantId);
  const [scopeRead, synonymRead, tableRead] = await db.batch([
    scopeStatement(db, tenantId),
    synonymRowStatement(db, tenantId),
    ...(table ? [table.statement] : []),
  ]);
  const scope = scopeFrom(scopeRead);
  await compiledSynonyms({ db, tenantId, stamp: scope.synonymStamp, read: synonymRead });
  table?.read(tableRead);
  return scope;
}

async function gatherRound({
  db,
  backends,
  tenantId,
  request,
  pool,
  expected,
}: {
  db: D1Database;
  backends: SearchBackends;
  tenantId: string;
  request: CandidateRequest;
  pool: number;
  expected: TenantScope;
}): Promise<{ scope: TenantScope; read: () => Promise<Candidates> }> {
  // The knowledge bases asked for are a filter until the round trip checks them (the vector query
  // gets only those the tenant had last time; one created since moves the scope, and the round
  // runs again); none asked for is all of the tenant's, which the statements read by tenant.
  const requested = request.kbIds && request.kbIds.length > 0 ? [...new Set(request.kbIds)] : null;
  const vectorScope = requested ? requested.filter((id) => expected.kbIds.includes(id)) : expected.kbIds;
  if (!requested && expected.kbIds.length === 0) {
    // A workshop without knowledge bases: nothing to search unless the round trip finds one.
    const scope = scopeFrom(await scopeStatement(db, tenantId).all());
    return { scope, read: async () => ({ synonyms: new Synonyms([]), keyword: [], vector: [], chunks: new Map() }) };
  }
  const synonyms = await compiledSynonyms({ db, tenantId, stamp: expected.synonymStamp });
  // The vector query goes first, so its chunks are read in the same round trip as the keyword
  // matches: one round trip after it rather than one beside it and one after both.
  const vector =
    request.mode !== "keyword" && vectorScope.length > 0
      ? await backends.embedder
          .embed([request.query])
          .then(([v]) => backends.vectorIndex.query(tenantId, v as number[], { topK: pool, kbIds: vectorScope }))
      : [];
  const vectorIds = vector.map((m) => m.id);
  const keyword =
    request.mode !== "vector"
      ? await keywordQuery({
          db,
          tenantId,
          query: request.query,
          kbIds: requested,
          limit: pool,
          synonyms,
          readElsewhere: new Set(vectorIds),
        })
      : null;
  const keywordStatements = keyword?.statements ?? [];
  const vectorChunks = vectorIds.length > 0 ? chunksByIds({ db, tenantId, kbIds: requested, ids: vectorIds }) : null;
  const results = await db.batch([
    scopeStatement(db, tenantId),
    ...keywordStatements,
    ...(vectorChunks ? [vectorChunks.statement] : []),
  ]);
  const scope = scopeFrom(results[0]);
  const read = async (): Promise<Candidates> => {
    if (searchScope(scope, request.kbIds).length === 0) return { synonyms, keyword: [], vector: [], chunks: new Map() };
    const ofVector = vectorChunks?.read(results[1 + keywordStatements.length]) ?? [];
    const chunks = new Map<string, ChunkRecord>(ofVector.map((chunk) => [chunk.id, chunk]));
    const keywordMatches = keyword
      ? await keyword.read(results.slice(1, 1 + keywordStatements.length), new Set(chunks.keys()))
      : [];
    for (const match of keywordMatches) if (match.chunk) chunks.set(match.id, match.chunk);
    return { synonyms, keyword: keywordMatches, vector, chunks };
  };
  return { scope, read };
}
