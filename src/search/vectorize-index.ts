import type { VectorIndex, VectorItem, VectorMatch } from "./vector-index.ts";

// Vectorize limits (developers.cloudflare.com/vectorize/platform/limits): 1000 vectors per upsert
// from a Worker, topK at most 100 when neither values nor metadata are returned.
const UPSERT_BATCH = 1000;
const DELETE_BATCH = 1000;
const MAX_TOP_K = 100;

/**
 * `VectorIndex` on Vectorize. Each tenant is a namespace, so a query can never reach another
 * tenant's vectors; `kb_id` is metadata, filtered with `$in` (create its metadata index, see docs/deployment.md).
 */
export class VectorizeVectorIndex implements VectorIndex {
  private readonly index: VectorizeIndex;

  constructor(index: VectorizeIndex) {
    this.index = index;
  }

  async upsert(tenantId: string, items: VectorItem[]): Promise<void> {
    for (let i = 0; i < items.length; i += UPSERT_BATCH) {
      await this.index.upsert(
        items.slice(i, i + UPSERT_BATCH).map((item) => ({
          id: item.id,
          values: item.values,
          namespace: tenantId,
          metadata: { kb_id: item.kbId, document_id: item.documentId },
        })),
      );
    }
  }

  async delete(_tenantId: string, ids: string[]): Promise<void> {
    // Ids are unique across tenants (they embed the document's UUID), so no namespace is needed.
    for (let i = 0; i < ids.length; i += DELETE_BATCH) await this.index.deleteByIds(ids.slice(i, i + DELETE_BATCH));
  }

  async query(tenantId: string, vector: number[], { topK, kbIds }: { topK: number; kbIds: string[] }): Promise<VectorMatch[]> {
    const result = await this.index.query(vector, {
      topK: Math.min(topK, MAX_TOP_K),
      namespace: tenantId,
      filter: { kb_id: { $in: kbIds } },
      returnValues: false,
      returnMetadata: "none",
    });
    return result.matches.map((m) => ({ id: m.id, score: Math.max(0, Math.min(1, m.score)) }));
  }
}
