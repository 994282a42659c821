import { log } from "../log.ts";

/** One chunk's vector, with what a search may filter on. */
export interface VectorItem {
  id: string;
  kbId: string;
  documentId: string;
  values: number[];
}

export interface VectorMatch {
  id: string;
  /** Cosine similarity clipped to [0, 1]. */
  score: number;
}

/**
 * Where chunk vectors live, always per tenant. Vectorize in production; `LocalVectorIndex`, a
 * SQLite-backed Durable Object doing exact cosine search, everywhere else.
 */
export interface VectorIndex {
  upsert(tenantId: string, items: VectorItem[]): Promise<void>;
  delete(tenantId: string, ids: string[]): Promise<void>;
  query(tenantId: string, vector: number[], options: { topK: number; kbIds: string[] }): Promise<VectorMatch[]>;
}

/** Best effort: a stale vector is harmless, since search drops ids that are not in the chunk table. */
export async function removeVectorsQuietly(index: VectorIndex, tenantId: string, ids: string[], reason: string): Promise<void> {
  if (ids.length === 0) return;
  try {
    await index.delete(tenantId, ids);
  } catch (error) {
    log("warn", "vector_cleanup_failed", { reason, tenant_id: tenantId, count: ids.length, error });
  }
}
