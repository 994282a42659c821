import type { TermStatistics } from "./answer-agreement.ts";
import type { Synonyms } from "./synonyms.ts";

export interface RerankCandidate {
  text: string;
  /** The first-stage score in [0, 1]. */
  score: number;
  /** The document it comes from, when known: passages of one document are not independent sources. */
  source?: string;
}

/** What a lexical reranker may use beyond the texts; a model that knows meaning needs neither. */
export interface RerankContext {
  /** The workshop's synonyms. */
  synonyms?: Synonyms;
  /** Looks terms up in the workshop's keyword index, for signals that weigh terms by rarity. */
  termStatistics?: (terms: string[]) => Promise<TermStatistics>;
}

/** Re-scores a short list of candidates for a query; every returned score is in [0, 1]. */
export interface Reranker {
  readonly model: string;
  rerank(query: string, candidates: RerankCandidate[], context?: RerankContext): Promise<number[]>;
}
