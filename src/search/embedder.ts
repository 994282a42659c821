/** Turns texts into vectors. Production uses Workers AI; local runs use the hashed n-gram embedder. */
export interface Embedder {
  /** Names the model, so vectors from different models are never mixed unnoticed. */
  readonly model: string;
  readonly dimensions: number;
  embed(texts: string[]): Promise<number[][]>;
}

/** Unit length, so that cosine similarity is a plain dot product. */
export function normalise(vector: ArrayLike<number>): number[] {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += (vector[i] as number) ** 2;
  const norm = Math.sqrt(sum) || 1;
  return Array.from(vector, (x) => x / norm);
}
