import { AppError } from "../errors.ts";
import type { RerankCandidate, Reranker } from "./reranker.ts";

const MODEL = "@cf/baai/bge-reranker-base";

/**
 * bge-reranker-base outputs a relevance logit (Cloudflare's model page: "the score can be mapped
 * to a float value in [0,1] by sigmoid function"), so every score is squashed the same way. The
 * earlier guess (keep values already in [0, 1], squash the rest) was not monotone: a logit of 1
 * stayed 1 while a logit of 1.1 became 0.75.
 */
function asProbability(logit: number): number {
  return 1 / (1 + Math.exp(-logit));
}

/** bge-reranker-base on Workers AI: a cross-encoder scoring each (query, passage) pair. */
export class WorkersAiReranker implements Reranker {
  readonly model = MODEL;
  private readonly ai: Ai;

  constructor(ai: Ai) {
    this.ai = ai;
  }

  async rerank(query: string, candidates: RerankCandidate[]): Promise<number[]> {
    if (candidates.length === 0) return [];
    // The generated input type omits `query`, which the model requires (its doc comment is there).
    const input = {
      query,
      contexts: candidates.map((c) => ({ text: c.text })),
      top_k: candidates.length,
    } as Ai_Cf_Baai_Bge_Reranker_Base_Input;
    const result: Ai_Cf_Baai_Bge_Reranker_Base_Output = await this.ai.run(MODEL, input);
    const scores = new Array<number>(candidates.length).fill(0);
    for (const item of result.response ?? []) {
      if (item.id === undefined || item.score === undefined || item.id < 0 || item.id >= candidates.length) {
        throw new AppError("upstream_failed", "The reranking model returned a result for a passage it was not given.");
      }
      scores[item.id] = asProbability(item.score);
    }
    return scores;
  }
}
