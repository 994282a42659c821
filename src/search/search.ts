import type { SearchBackends } from "./backends.ts";
import { calibrateList } from "./calibration.ts";
import { type CandidateRequest, gatherCandidates } from "./candidates.ts";
import type { ChunkRecord } from "./chunk-record.ts";
import { FAQ_CONTENT_TYPE } from "./faq.ts";
import { passageText } from "./passage-text.ts";

export type SearchMode = CandidateRequest["mode"];

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
  /** The PDF page the passage is on (a citation says 第 2 页), or null. */
  page: number | null;
  /** The spreadsheet's sheet the passage's rows are from, or null. */
  sheet: string | null;
}

/** Defaults shared by both faces: the WeKnora design's, min_score 0.5 included (scores are calibrated). */
export const SEARCH_DEFAULTS = { mode: "hybrid", topK: 10, minScore: 0.5, rerank: true } as const;

// Candidates each retriever contributes before fusion and reranking (Vectorize caps topK at 100).
const POOL = 50;

/**
 * Searches the caller's knowledge bases, document and FAQ bases alike. Each mode's raw signal
 * picks and orders the candidates (keyword: BM25 over the query's total IDF, mapped into [0, 1);
 * vector: cosine, clipped at 0; hybrid: their weighted mean; with rerank: the reranker's score);
 * calibration (`calibration.ts`) then turns each candidate's raw score and its evidence in the
 * list into the chance that the passage answers the query, the score results are ordered and
 * `minScore` is applied by, so it means the same in every mode. The workshop's synonyms widen the
 * keyword match and the lexical evidence. An FAQ entry counts once, by its best-matching
 * question, and answers with its answer, ranked among document passages by the same score.
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
  const pool = Math.max(POOL, request.topK);
  const { synonyms, keyword, vector, chunks } = await gatherCandidates({ db, backends, tenantId, request, pool });
  const useKeyword = request.mode !== "vector";
  const keywordScores = new Map(keyword.map((m) => [m.id, m.score]));
  const vectorScores = new Map(vector.map((m) => [m.id, m.score]));
  const w = request.mode === "hybrid" ? backends.keywordWeight : request.mode === "keyword" ? 1 : 0;
  const found = [...chunks.values()].map((chunk) => {
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
  const picked = bestPerFaqEntry(found).sort(byScore).slice(0, pool);
  // What the reranker and the calibration read of each candidate.
  let scored = picked.map((s) => ({ ...s, text: rerankText(s.chunk) }));

  if (request.rerank && scored.length > 0) {
    const reranked = await backends.reranker.rerank(
      request.query,
      scored.map((s) => ({ text: s.text, score: s.score })),
      synonyms,
    );
    scored = scored.map((s, i) => ({ ...s, score: reranked[i] as number }));
    scored.sort(byScore);
  }

  if (backends.calibration) {
    const model = backends.calibration[!request.rerank ? request.mode : useKeyword ? "rerank" : "vectorRerank"];
    // `scored` is in raw-score order, as the list's features are read from it.
    const candidates = scored.map((s) => ({
      text: s.text,
      source: s.chunk.document_id,
      raw: s.score,
      keyword: keywordScores.get(s.chunk.id) ?? 0,
    }));
    const calibrated = calibrateList(request.query, candidates, model, synonyms.canonicaliserFor(request.query));
    // A stable sort: equal calibrated scores keep their raw order.
    scored = scored.map((s, i) => ({ ...s, score: calibrated[i] as number })).sort((a, b) => b.score - a.score);
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
      page: chunk.page ?? null,
      sheet: chunk.sheet ?? null,
    })),
  };
}

function byScore(a: { score: number; chunk: ChunkRecord }, b: { score: number; chunk: ChunkRecord }): number {
  return b.score - a.score || a.chunk.id.localeCompare(b.chunk.id);
}

function isFaq(chunk: ChunkRecord): boolean {
  return chunk.content_type === FAQ_CONTENT_TYPE;
}

/**
 * An FAQ entry's chunks are its questions; only the best-matching one stands for the entry, the
 * earlier question among equals, whatever order the chunks were read in.
 */
function bestPerFaqEntry<T extends { chunk: ChunkRecord; score: number }>(scored: T[]): T[] {
  const best = new Map<string, T>();
  const rest: T[] = [];
  for (const s of scored) {
    if (!isFaq(s.chunk)) {
      rest.push(s);
      continue;
    }
    const current = best.get(s.chunk.document_id);
    const better =
      !current || s.score > current.score || (s.score === current.score && s.chunk.position < current.chunk.position);
    if (better) best.set(s.chunk.document_id, s);
  }
  return [...rest, ...best.values()];
}

/** What the reranker compares with the query: a passage in its context, or an FAQ entry's question. */
function rerankText(chunk: ChunkRecord): string {
  return isFaq(chunk) ? chunk.heading_path : passageText(chunk);
}
