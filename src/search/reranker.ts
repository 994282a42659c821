import type { Synonyms } from "./synonyms.ts";

export interface RerankCandidate {
  text: string;
  /** The first-stage score in [0, 1]. */
  score: number;
}

/** Re-scores a short list of candidates for a query; every returned score is in [0, 1]. */
export interface Reranker {
  readonly model: string;
  /** `synonyms` are the workshop's; a lexical reranker uses them, a model that knows meaning need not. */
  rerank(query: string, candidates: RerankCandidate[], synonyms?: Synonyms): Promise<number[]>;
}
