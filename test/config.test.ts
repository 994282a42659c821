import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readConfig } from "../src/config.ts";
import { searchBackends } from "../src/search/backends.ts";
import { LocalEmbedder } from "../src/search/local-embedder.ts";
import { LocalReranker } from "../src/search/local-reranker.ts";
import { LocalVectorIndexClient } from "../src/search/local-vector-index.ts";
import { VectorizeVectorIndex } from "../src/search/vectorize-index.ts";
import { WorkersAiEmbedder } from "../src/search/workers-ai-embedder.ts";
import { WorkersAiReranker } from "../src/search/workers-ai-reranker.ts";
import { searchBindingsOf } from "../src/services.ts";

const production = {
  ...env,
  ENVIRONMENT: "production",
  VECTOR_INDEX: "vectorize",
  EMBEDDINGS: "workers-ai",
  RERANKER: "workers-ai",
  CHAT_MODEL: "workers-ai",
  PUBLIC_URL: "https://weft.test",
} as unknown as Env;

describe("configuration", () => {
  it("selects the local stand-ins by default", () => {
    const backends = searchBackends(searchBindingsOf(env), readConfig(env));
    expect(backends.embedder).toBeInstanceOf(LocalEmbedder);
    expect(backends.vectorIndex).toBeInstanceOf(LocalVectorIndexClient);
    expect(backends.reranker).toBeInstanceOf(LocalReranker);
  });

  it("selects Vectorize and Workers AI when configured and bound", () => {
    const bound = { ...production, AI: {} as Ai, VECTORIZE: {} as VectorizeIndex } as Env;
    const backends = searchBackends(searchBindingsOf(bound), readConfig(bound));
    expect(backends.embedder).toBeInstanceOf(WorkersAiEmbedder);
    expect(backends.vectorIndex).toBeInstanceOf(VectorizeVectorIndex);
    expect(backends.reranker).toBeInstanceOf(WorkersAiReranker);
    expect(backends.keywordWeight).toBe(0.5);
  });

  it("refuses a remote backend whose binding is missing, naming it", () => {
    expect(() => readConfig({ ...production, AI: {} as Ai } as Env)).toThrow(/VECTORIZE/);
    expect(() => readConfig({ ...production, VECTORIZE: {} as VectorizeIndex } as Env)).toThrow(/AI binding/);
  });

  it("takes sign-ups as SIGNUP says: open under wrangler dev and the tests, closed when unset, nothing else", () => {
    expect(readConfig(env).signup).toBe("open");
    expect(readConfig({ ...env, SIGNUP: "invite" } as unknown as Env).signup).toBe("invite");
    const { SIGNUP: _, ...unset } = env;
    expect(readConfig(unset as unknown as Env).signup).toBe("closed");
    expect(() => readConfig({ ...env, SIGNUP: "everyone" } as unknown as Env)).toThrow(/SIGNUP/);
  });

  it("refuses an unknown backend name", () => {
    expect(() => readConfig({ ...env, VECTOR_INDEX: "pinecone" } as unknown as Env)).toThrow();
  });
});
