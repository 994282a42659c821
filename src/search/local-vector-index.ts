import { DurableObject } from "cloudflare:workers";
import { normalise } from "./embedder.ts";
import type { VectorIndex, VectorItem, VectorMatch } from "./vector-index.ts";

interface Loaded {
  ids: string[];
  /** Each row's knowledge base, as an index into `kbNames`. */
  kbOf: Int32Array;
  kbNames: string[];
  /**
   * Column-major: dimension d of row r at d × rows + r. A query reads only the columns of its
   * non-zero dimensions, each in one sequential pass; a local embedding of a short question has a
   * few dozen of its 256.
   */
  columns: Float32Array;
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

  /**
   * The `topK` nearest vectors by cosine similarity among the given knowledge bases, ties in the
   * order the rows were stored. Each row's dot product adds its terms in dimension order, leaving
   * out those of the query's zero dimensions (adding ±0 changes no sum), so it is the same number
   * a row-by-row product gives.
   */
  search(values: number[], topK: number, kbIds: string[]): VectorMatch[] {
    const loaded = this.load();
    const query = normalise(values);
    const rows = loaded.ids.length;
    if (rows === 0 || query.length !== loaded.dimensions) return [];
    const { columns, dimensions, kbOf } = loaded;
    const dots = new Float64Array(rows);
    for (let d = 0; d < dimensions; d++) {
      const q = query[d] as number;
      if (q === 0) continue;
      const offset = d * rows;
      for (let row = 0; row < rows; row++) dots[row] = (dots[row] as number) + (columns[offset + row] as number) * q;
    }
    const wanted = new Set(kbIds);
    const allowed = loaded.kbNames.map((name) => wanted.has(name));
    const best: { row: number; score: number }[] = [];
    for (let row = 0; row < rows; row++) {
      if (!allowed[kbOf[row] as number]) continue;
      const dot = dots[row] as number;
      if (best.length < topK || dot > (best.at(-1) as { score: number }).score) {
        best.push({ row, score: dot });
        // Stable: among equal scores the earlier row stays first.
        best.sort((a, b) => b.score - a.score);
        if (best.length > topK) best.pop();
      }
    }
    return best.map((m) => ({ id: loaded.ids[m.row] as string, score: Math.max(0, Math.min(1, m.score)) }));
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
    const columns = new Float32Array(all.length * dimensions);
    const ids: string[] = [];
    const kbOf = new Int32Array(all.length);
    const kbIndex = new Map<string, number>();
    all.forEach((row, r) => {
      const vector = new Float32Array(row.vector);
      for (let d = 0; d < dimensions; d++) columns[d * all.length + r] = vector[d] as number;
      ids.push(row.id);
      if (!kbIndex.has(row.kb_id)) kbIndex.set(row.kb_id, kbIndex.size);
      kbOf[r] = kbIndex.get(row.kb_id) as number;
    });
    this.loaded = { ids, kbOf, kbNames: [...kbIndex.keys()], columns, dimensions };
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
