import { AppError } from "../errors.ts";
import type { Embedder } from "./embedder.ts";

const MODEL = "@cf/baai/bge-m3";
// Requests stay well inside the model's per-call limits; larger inputs are sent in slices.
const BATCH = 50;

/** bge-m3 on Workers AI: multilingual (Chinese and English alike), 1024 dimensions. */
export class WorkersAiEmbedder implements Embedder {
  readonly model = MODEL;
  readonly dimensions = 1024;
  private readonly ai: Ai;

  constructor(ai: Ai) {
    this.ai = ai;
  }

  async embed(texts: string[]): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += BATCH) {
      const slice = texts.slice(i, i + BATCH);
      const result = (await this.ai.run(MODEL, { text: slice, truncate_inputs: true })) as { data?: number[][] };
      if (!result.data || result.data.length !== slice.length) {
        throw new AppError(
          "upstream_failed",
          `The embedding model returned ${result.data?.length ?? 0} vectors for ${slice.length} texts.`,
        );
      }
      out.push(...result.data);
    }
    return out;
  }
}
