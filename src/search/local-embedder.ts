import { type Embedder, normalise } from "./embedder.ts";

const CJK_RUN = /[\u3400-\u9fff\uf900-\ufaff]+|[\p{L}\p{N}]+/gu;
const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

/** FNV-1a: fast, stable across runtimes, good enough spread for feature hashing. */
function fnv1a(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 16777619);
  }
  return hash >>> 0;
}

/**
 * Features of a text: CJK character 1-, 2- and 3-grams (Chinese has no spaces, so n-grams stand in
 * for words and short phrases), Latin words and their character trigrams (robust to inflection).
 */
export function features(text: string): string[] {
  const out: string[] = [];
  for (const match of text.normalize("NFKC").toLowerCase().matchAll(CJK_RUN)) {
    const run = match[0];
    if (CJK.test(run)) {
      for (let i = 0; i < run.length; i++) {
        out.push(run.slice(i, i + 1));
        if (i + 2 <= run.length) out.push(run.slice(i, i + 2));
        if (i + 3 <= run.length) out.push(run.slice(i, i + 3));
      }
    } else {
      out.push(run);
      const padded = `#${run}#`;
      for (let i = 0; i + 3 <= padded.length; i++) out.push(`~${padded.slice(i, i + 3)}`);
    }
  }
  return out;
}

/**
 * The local stand-in for an embedding model: a deterministic, signed feature-hashing vector of
 * n-gram counts (sublinear), unit length. It knows no meaning beyond shared character sequences,
 * so it is a second lexical view rather than a semantic one; production uses bge-m3.
 */
export class LocalEmbedder implements Embedder {
  readonly model = "local-hashed-ngrams-v1";
  readonly dimensions: number;

  constructor(dimensions = 256) {
    this.dimensions = dimensions;
  }

  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((text) => this.embedOne(text));
  }

  private embedOne(text: string): number[] {
    const counts = new Map<string, number>();
    for (const feature of features(text)) counts.set(feature, (counts.get(feature) ?? 0) + 1);
    const vector = new Float64Array(this.dimensions);
    for (const [feature, count] of counts) {
      const hash = fnv1a(feature);
      const slot = (hash >>> 1) % this.dimensions;
      vector[slot] = (vector[slot] as number) + (hash & 1 ? 1 : -1) * (1 + Math.log(count));
    }
    return normalise(vector);
  }
}
