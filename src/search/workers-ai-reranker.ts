import { AppError } from "../errors.ts";
import type { RerankCandidate, Reranker } from "./reranker.ts";

const MODEL = "@cf/baai/bge-reranker-base";

/** A cross-encoder's output as a probability: logits are squashed, probabilities kept. */
function asProbability(score: number): number {
  return score >= 0 && score <= 1 ? score : 1 / (1 + Math.exp(-score));
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
