import { DurableObject } from "cloudflare:workers";
import { normalise } from "./embedder.ts";
import type { VectorIndex, VectorItem, VectorMatch } from "./vector-index.ts";

interface Loaded {
  ids: string[];
  kbIds: string[];
  matrix: Float32Array;
  dimensions: number;
}

/**
 * The local stand-in for Vectorize: one Durable Object per tenant, vectors in its SQLite storage,
 * exact cosine search over an in-memory copy that is rebuilt after writes. Cost is linear in the
 * tenant's chunk count (see docs/benchmarks.md).
 */
export class LocalVectorIndex extends DurableObject<Env> {
  private loaded: Loaded | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS vectors (id TEXT PRIMARY KEY, kb_id TEXT NOT NULL, document_id TEXT NOT NULL, dims INTEGER NOT NULL, vector BLOB NOT NULL)",
    );
  }

  /** Inserts or replaces vectors, stored unit length. */
  upsert(items: VectorItem[]): number {
    this.ctx.storage.transactionSync(() => {
      for (const item of items) {
        const vector = new Float32Array(normalise(item.values));
        this.ctx.storage.sql.exec(
          "INSERT OR REPLACE INTO vectors (id, kb_id, document_id, dims, vector) VALUES (?, ?, ?, ?, ?)",
          item.id,
          item.kbId,
          item.documentId,
          vector.length,
          vector.buffer,
        );
      }
    });
    this.loaded = null;
    return items.length;
  }

  /** Removes vectors by id; unknown ids are ignored. */
  remove(ids: string[]): number {
    this.ctx.storage.transactionSync(() => {
      for (const id of ids) this.ctx.storage.sql.exec("DELETE FROM vectors WHERE id = ?", id);
    });
    this.loaded = null;
    return ids.length;
  }

  /** The `topK` nearest vectors by cosine similarity among the given knowledge bases. */
  search(values: number[], topK: number, kbIds: string[]): VectorMatch[] {
    const loaded = this.load();
    const query = normalise(values);
    if (loaded.ids.length === 0 || query.length !== loaded.dimensions) return [];
    const allowed = new Set(kbIds);
    const best: VectorMatch[] = [];
    const { matrix, dimensions } = loaded;
    for (let row = 0; row < loaded.ids.length; row++) {
      if (!allowed.has(loaded.kbIds[row] as string)) continue;
      let dot = 0;
      const offset = row * dimensions;
      for (let i = 0; i < dimensions; i++) dot += (matrix[offset + i] as number) * (query[i] as number);
      if (best.length < topK || dot > (best.at(-1) as VectorMatch).score) {
        best.push({ id: loaded.ids[row] as string, score: dot });
        best.sort((a, b) => b.score - a.score);
        if (best.length > topK) best.pop();
      }
    }
    return best.map((m) => ({ id: m.id, score: Math.max(0, Math.min(1, m.score)) }));
  }

  /** How many vectors the tenant has. */
  count(): number {
    return (this.ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM vectors").one().n as number) ?? 0;
  }

  private load(): Loaded {
    if (this.loaded) return this.loaded;
    const rows = this.ctx.storage.sql.exec<{ id: string; kb_id: string; dims: number; vector: ArrayBuffer }>(
      "SELECT id, kb_id, dims, vector FROM vectors",
    );
    const all = rows.toArray();
    const dimensions = all[0]?.dims ?? 0;
    const matrix = new Float32Array(all.length * dimensions);
    const ids: string[] = [];
    const kbIds: string[] = [];
    all.forEach((row, i) => {
      matrix.set(new Float32Array(row.vector), i * dimensions);
      ids.push(row.id);
      kbIds.push(row.kb_id);
    });
    this.loaded = { ids, kbIds, matrix, dimensions };
    return this.loaded;
  }
}

// Each RPC carries at most this many vectors, keeping messages well under the RPC size limit.
const RPC_BATCH = 500;

/** `VectorIndex` over the tenant's `LocalVectorIndex` Durable Object. */
export class LocalVectorIndexClient implements VectorIndex {
  private readonly namespace: DurableObjectNamespace<LocalVectorIndex>;

  constructor(namespace: DurableObjectNamespace<LocalVectorIndex>) {
    this.namespace = namespace;
  }

  private stub(tenantId: string) {
    return this.namespace.get(this.namespace.idFromName(tenantId));
  }

  async upsert(tenantId: string, items: VectorItem[]): Promise<void> {
    for (let i = 0; i < items.length; i += RPC_BATCH) await this.stub(tenantId).upsert(items.slice(i, i + RPC_BATCH));
  }

  async delete(tenantId: string, ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += RPC_BATCH) await this.stub(tenantId).remove(ids.slice(i, i + RPC_BATCH));
  }

  async query(tenantId: string, vector: number[], { topK, kbIds }: { topK: number; kbIds: string[] }): Promise<VectorMatch[]> {
    return this.stub(tenantId).search(vector, topK, kbIds);
  }
}
