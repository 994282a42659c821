import type { Config } from "../config.ts";
import type { Calibration } from "./calibration.ts";
import { CALIBRATION } from "./calibration-constants.ts";
import type { Embedder } from "./embedder.ts";
import { LocalEmbedder } from "./local-embedder.ts";
import { LocalReranker } from "./local-reranker.ts";
import { type LocalVectorIndex, LocalVectorIndexClient } from "./local-vector-index.ts";
import { NoOcr, type Ocr } from "./ocr.ts";
import type { Reranker } from "./reranker.ts";
import type { VectorIndex } from "./vector-index.ts";
import { VectorizeVectorIndex } from "./vectorize-index.ts";
import { WorkersAiEmbedder } from "./workers-ai-embedder.ts";
import { WorkersAiOcr } from "./workers-ai-ocr.ts";
import { WorkersAiReranker } from "./workers-ai-reranker.ts";

/** The search pieces a deployment runs on, chosen by configuration alone. */
export interface SearchBackends {
  embedder: Embedder;
  vectorIndex: VectorIndex;
  reranker: Reranker;
  /** Text recognition for photos and scans. */
  ocr: Ocr;
  /** Weight of the keyword score in hybrid mode; the vector score gets the rest. */
  keywordWeight: number;
  /** How raw scores become calibrated ones, for these backends; null serves raw scores (for fitting). */
  calibration: Calibration | null;
}

/** The bindings the backends may run on; only those `config` names are used. */
export interface SearchBindings {
  ai: Ai | undefined;
  vectorize: VectorizeIndex | undefined;
  localVectorIndex: DurableObjectNamespace<LocalVectorIndex>;
}

/**
 * Builds the backends `config` names, on the bindings the wiring hands over. The local embedder is lexical, so hybrid leans on BM25
 * there; with bge-m3 the two views carry equal weight. `readConfig` has already checked that
 * remote backends have their bindings.
 */
export function searchBackends(bindings: SearchBindings, config: Config): SearchBackends {
  const { backends } = config;
  const embedder = backends.embeddings === "workers-ai" ? new WorkersAiEmbedder(bindings.ai as Ai) : new LocalEmbedder();
  const vectorIndex =
    backends.vectorIndex === "vectorize"
      ? new VectorizeVectorIndex(bindings.vectorize as VectorizeIndex)
      : new LocalVectorIndexClient(bindings.localVectorIndex);
  const reranker = backends.reranker === "workers-ai" ? new WorkersAiReranker(bindings.ai as Ai) : new LocalReranker();
  // Keyword scores depend on no backend; vector and hybrid ones on the embedder; reranked ones on the reranker.
  const calibration: Calibration = {
    keyword: CALIBRATION.keyword,
    vector: CALIBRATION.vector[backends.embeddings],
    hybrid: CALIBRATION.hybrid[backends.embeddings],
    rerank: CALIBRATION.rerank[backends.reranker],
    vectorRerank: CALIBRATION.vectorRerank[backends.reranker],
  };
  return {
    embedder,
    vectorIndex,
    reranker,
    ocr: backends.ocr === "workers-ai" ? new WorkersAiOcr(bindings.ai as Ai) : new NoOcr(),
    keywordWeight: backends.embeddings === "workers-ai" ? 0.5 : 0.8,
    calibration: config.scoreCalibration ? calibration : null,
  };
}
