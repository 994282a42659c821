import type { SearchBackends } from "./backends.ts";
import { chunksByIds } from "./documents.ts";
import { keywordSearch } from "./keyword-index.ts";
import { resolveScope } from "./scope.ts";

export type SearchMode = "hybrid" | "vector" | "keyword";

export interface SearchRequest {
  query: string;
  kbIds?: string[] | undefined;
  mode: SearchMode;
  topK: number;
  minScore: number;
  rerank: boolean;
}

/** One passage, in the WeKnora result shape plus where it sits in its document. */
export interface SearchResult {
  id: string;
  content: string;
  score: number;
  knowledge_id: string;
  knowledge_title: string;
  knowledge_filename: string;
  match_type: SearchMode;
  knowledge_base_id: string;
  heading_path: string;
  position: number;
}

/** Defaults shared by both faces (the WeKnora design's, except min_score: see the README). */
export const SEARCH_DEFAULTS = { mode: "hybrid", topK: 10, minScore: 0.2, rerank: true } as const;

// Candidates each retriever contributes before fusion and reranking (Vectorize caps topK at 100).
const POOL = 50;

/**
 * Searches the caller's knowledge bases. Every score is in [0, 1] and means the same in every
 * mode, so `minScore` does too:
 * - keyword: BM25 over the query's total IDF, capped at 1 (share of the query matched);
 * - vector: cosine similarity, clipped at 0;
 * - hybrid: the weighted mean of the two (a chunk one retriever missed scores 0 there);
 * - with rerank: the reranker's score (local: mean of the above and the phrase match).
 */
export async function searchKnowledge({
  db,
  backends,
  tenantId,
  request,
}: {
  db: D1Database;
  backends: SearchBackends;
  tenantId: string;
  request: SearchRequest;
}): Promise<{ results: SearchResult[]; total_count: number }> {
  const kbIds = await resolveScope({ db, tenantId, kbIds: request.kbIds });
  if (kbIds.length === 0) return { results: [], total_count: 0 };
  const pool = Math.max(POOL, request.topK);
  const useKeyword = request.mode !== "vector";
  const useVector = request.mode !== "keyword";
  const [keyword, vector] = await Promise.all([
    useKeyword ? keywordSearch({ db, tenantId, query: request.query, kbIds, limit: pool }) : [],
    useVector
      ? backends.embedder
          .embed([request.query])
          .then(([v]) => backends.vectorIndex.query(tenantId, v as number[], { topK: pool, kbIds }))
      : [],
  ]);

  const keywordScores = new Map(keyword.map((m) => [m.id, m.score]));
  const vectorScores = new Map(vector.map((m) => [m.id, m.score]));
  const ids = [...new Set([...keywordScores.keys(), ...vectorScores.keys()])];
  // The chunk table is the truth: vector hits for chunks replaced or deleted since are dropped here.
  const chunks = await chunksByIds({ db, tenantId, kbIds, ids });
  const w = request.mode === "hybrid" ? backends.keywordWeight : request.mode === "keyword" ? 1 : 0;
  let scored = [...chunks.values()].map((chunk) => {
    const k = keywordScores.get(chunk.id);
    const v = vectorScores.get(chunk.id);
    const match_type: SearchMode =
      request.mode !== "hybrid"
        ? request.mode
        : k !== undefined && v !== undefined
          ? "hybrid"
          : k !== undefined
            ? "keyword"
            : "vector";
    return { chunk, score: w * (k ?? 0) + (1 - w) * (v ?? 0), match_type };
  });
  scored.sort((a, b) => b.score - a.score || a.chunk.id.localeCompare(b.chunk.id));
  scored = scored.slice(0, pool);

  if (request.rerank && scored.length > 0) {
    const reranked = await backends.reranker.rerank(
      request.query,
      scored.map((s) => ({ text: passageText(s.chunk), score: s.score })),
    );
    scored = scored.map((s, i) => ({ ...s, score: reranked[i] as number }));
    scored.sort((a, b) => b.score - a.score || a.chunk.id.localeCompare(b.chunk.id));
  }

  const passing = scored.filter((s) => s.score >= request.minScore);
  return {
    total_count: passing.length,
    results: passing.slice(0, request.topK).map(({ chunk, score, match_type }) => ({
      id: chunk.id,
      content: chunk.content,
      score: Math.round(score * 10_000) / 10_000,
      knowledge_id: chunk.document_id,
      knowledge_title: chunk.knowledge_title,
      knowledge_filename: chunk.knowledge_filename,
      match_type,
      knowledge_base_id: chunk.kb_id,
      heading_path: chunk.heading_path,
      position: chunk.position,
    })),
  };
}

/** The text a chunk was indexed and embedded with: title, headings, content. */
export function passageText(chunk: { knowledge_title: string; heading_path: string; content: string }): string {
  return [chunk.knowledge_title, chunk.heading_path, chunk.content].filter(Boolean).join("\n");
}
