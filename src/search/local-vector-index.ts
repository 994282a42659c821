import { DurableObject } from "cloudflare:workers";
import { LruMap } from "../lru-map.ts";
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
 * Floats an index object keeps in memory, of the tenants searched last: 8 MB an object, 64 MB for
 * the 8 (locally they share the Worker's isolate). A tenant larger than that alone is still kept.
 */
const LOADED_FLOATS = 2_000_000;

/** A row of a tenant's own object from before buckets. */
type HandedOver = { rowid: number; id: string; kb_id: string; document_id: string; dims: number; vector: ArrayBuffer };

/**
 * The local stand-in for Vectorize: exact cosine search over vectors kept in Durable Objects'
 * SQLite storage, each tenant's apart (its own rows, its own in-memory copy, rebuilt after its
 * writes), as Vectorize keeps a namespace a tenant in one index. Tenants share `BUCKETS` objects
 * (`bucketOf`): an object a tenant cost each workshop an object's start on its first search after
 * a restart (measured, `npm run bench -- tenants`), which Vectorize does not have. Cost is linear
 * in the tenant's chunk count (see docs/benchmarks.md).
 *
 * Before, each tenant had an object of its own, named by its id, its rows in `vectors`; a tenant's
 * first use of its bucket takes them over (`adopt`), so a local state from then keeps its vectors.
 */
export class LocalVectorIndex extends DurableObject<Env> {
  private readonly loaded = new LruMap<string, Loaded>(4096, {
    weigh: (l) => l.columns.length,
    budget: LOADED_FLOATS,
  });
  private readonly adoptions = new Map<string, Promise<void>>();

  private tablesMade = false;

  /**
   * A bucket's tables, made on its first use rather than in the constructor: the objects asked only
   * to hand over (`handOver`) are left without new tables (an empty one a workshop, else).
   */
  private tables(): SqlStorage {
    const sql = this.ctx.storage.sql;
    if (!this.tablesMade) {
      sql.exec(
        `CREATE TABLE IF NOT EXISTS tenant_vectors (tenant_id TEXT NOT NULL, id TEXT NOT NULL, kb_id TEXT NOT NULL, document_id TEXT NOT NULL,
           dims INTEGER NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (tenant_id, id));
         CREATE TABLE IF NOT EXISTS adopted (tenant_id TEXT PRIMARY KEY);`,
      );
      this.tablesMade = true;
    }
    return sql;
  }

  /** Inserts or replaces the tenant's vectors, stored unit length. */
  async upsert(tenantId: string, items: VectorItem[]): Promise<number> {
    await this.adopt(tenantId);
    this.ctx.storage.transactionSync(() => {
      for (const item of items) {
        const vector = new Float32Array(normalise(item.values));
        this.tables().exec(
          "INSERT OR REPLACE INTO tenant_vectors (tenant_id, id, kb_id, document_id, dims, vector) VALUES (?, ?, ?, ?, ?, ?)",
          tenantId,
          item.id,
          item.kbId,
          item.documentId,
          vector.length,
          vector.buffer,
        );
      }
    });
    this.loaded.delete(tenantId);
    return items.length;
  }

  /** Removes the tenant's vectors by id; unknown ids are ignored. */
  async remove(tenantId: string, ids: string[]): Promise<number> {
    await this.adopt(tenantId);
    this.ctx.storage.transactionSync(() => {
      for (const id of ids) this.tables().exec("DELETE FROM tenant_vectors WHERE tenant_id = ? AND id = ?", tenantId, id);
    });
    this.loaded.delete(tenantId);
    return ids.length;
  }

  /**
   * The `topK` nearest vectors by cosine similarity among the given knowledge bases, ties in the
   * order the rows were stored. Each row's dot product adds its terms in dimension order, leaving
   * out those of the query's zero dimensions (adding ±0 changes no sum), so it is the same number
   * a row-by-row product gives.
   */
  async search(tenantId: string, values: number[], topK: number, kbIds: string[]): Promise<VectorMatch[]> {
    await this.adopt(tenantId);
    const loaded = this.load(tenantId);
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
  async count(tenantId: string): Promise<number> {
    await this.adopt(tenantId);
    return this.tables().exec<{ n: number }>("SELECT COUNT(*) AS n FROM tenant_vectors WHERE tenant_id = ?", tenantId).one().n;
  }

  /**
   * A page of the rows a tenant's own object kept before buckets (after `afterRowid`, at most
   * `RPC_BATCH`), read only: the bucket forgets them here (`forgetHandedOver`) once it holds them.
   * An object that never had them answers nothing and makes no table.
   */
  handOver(afterRowid: number): HandedOver[] {
    const sql = this.ctx.storage.sql;
    if (sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'vectors'").toArray().length === 0) return [];
    return sql
      .exec<HandedOver>(
        "SELECT rowid, id, kb_id, document_id, dims, vector FROM vectors WHERE rowid > ? ORDER BY rowid LIMIT ?",
        afterRowid,
        RPC_BATCH,
      )
      .toArray();
  }

  /** Forgets the rows handed over, once the bucket has them. */
  forgetHandedOver(): void {
    const sql = this.ctx.storage.sql;
    if (sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'vectors'").toArray().length > 0)
      sql.exec("DROP TABLE vectors");
  }

  /**
   * Takes over the tenant's vectors from the object it had before buckets, once: every operation
   * on the tenant waits for it, so none runs on a half-adopted tenant and a vector removed since is
   * not brought back. The tenant is marked adopted in the same transaction as its rows land.
   */
  private adopt(tenantId: string): Promise<void> {
    const done = this.tables().exec("SELECT 1 FROM adopted WHERE tenant_id = ?", tenantId).toArray().length > 0;
    if (done) return Promise.resolve();
    let adoption = this.adoptions.get(tenantId);
    if (!adoption) {
      adoption = (async () => {
        const own = this.env.LOCAL_VECTOR_INDEX.get(this.env.LOCAL_VECTOR_INDEX.idFromName(tenantId));
        // Page by page (an RPC's answer is bounded), all read before any is written, so the rows
        // and the mark land in one transaction, and the old object forgets them only after it.
        const rows: HandedOver[] = [];
        for (
          let page = own.id.equals(this.ctx.id) ? [] : await own.handOver(0);
          page.length > 0;
          page = await own.handOver(page.at(-1)?.rowid ?? 0)
        ) {
          rows.push(...page);
        }
        this.ctx.storage.transactionSync(() => {
          for (const row of rows) {
            this.tables().exec(
              "INSERT OR IGNORE INTO tenant_vectors (tenant_id, id, kb_id, document_id, dims, vector) VALUES (?, ?, ?, ?, ?, ?)",
              tenantId,
              row.id,
              row.kb_id,
              row.document_id,
              row.dims,
              row.vector,
            );
          }
          this.tables().exec("INSERT OR IGNORE INTO adopted (tenant_id) VALUES (?)", tenantId);
        });
        this.loaded.delete(tenantId);
        if (rows.length > 0) await own.forgetHandedOver();
      })().finally(() => this.adoptions.delete(tenantId));
      this.adoptions.set(tenantId, adoption);
    }
    return adoption;
  }

  private load(tenantId: string): Loaded {
    const kept = this.loaded.get(tenantId);
    if (kept) return kept;
    const rows = this.tables().exec<{ id: string; kb_id: string; dims: number; vector: ArrayBuffer }>(
      "SELECT id, kb_id, dims, vector FROM tenant_vectors WHERE tenant_id = ? ORDER BY rowid",
      tenantId,
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
    const loaded = { ids, kbOf, kbNames: [...kbIndex.keys()], columns, dimensions };
    this.loaded.set(tenantId, loaded);
    return loaded;
  }
}

// Each RPC carries at most this many vectors, keeping messages well under the RPC size limit.
const RPC_BATCH = 500;

/**
 * Index objects the tenants share. Changing it moves tenants to other buckets, where their vectors
 * are not, until `npm run restore -- --reindex-only` rebuilds them from the chunks.
 */
const BUCKETS = 8;

/** The bucket a tenant's vectors are in: FNV-1a of its id. */
export function bucketOf(tenantId: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < tenantId.length; i++) hash = Math.imul(hash ^ tenantId.charCodeAt(i), 0x01000193);
  return `bucket-${(hash >>> 0) % BUCKETS}`;
}

/** `VectorIndex` over the `LocalVectorIndex` object of the tenant's bucket. */
export class LocalVectorIndexClient implements VectorIndex {
  private readonly namespace: DurableObjectNamespace<LocalVectorIndex>;

  constructor(namespace: DurableObjectNamespace<LocalVectorIndex>) {
    this.namespace = namespace;
  }

  private stub(tenantId: string) {
    return this.namespace.get(this.namespace.idFromName(bucketOf(tenantId)));
  }

  async upsert(tenantId: string, items: VectorItem[]): Promise<void> {
    for (let i = 0; i < items.length; i += RPC_BATCH) await this.stub(tenantId).upsert(tenantId, items.slice(i, i + RPC_BATCH));
  }

  async delete(tenantId: string, ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += RPC_BATCH) await this.stub(tenantId).remove(tenantId, ids.slice(i, i + RPC_BATCH));
  }

  async query(tenantId: string, vector: number[], { topK, kbIds }: { topK: number; kbIds: string[] }): Promise<VectorMatch[]> {
    return this.stub(tenantId).search(tenantId, vector, topK, kbIds);
  }

  /** How many vectors the tenant has (for tests and checks). */
  async count(tenantId: string): Promise<number> {
    return this.stub(tenantId).count(tenantId);
  }
}
