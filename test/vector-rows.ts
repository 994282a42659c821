import { env, runInDurableObject } from "cloudflare:test";
import { bucketOf } from "../src/search/local-vector-index.ts";

/**
 * The ids of a workshop's vectors that the local vector index stores and that match `where` (SQL
 * over its `tenant_vectors` rows), read in the bucket that holds the workshop.
 */
export function storedVectorIds(tenantId: string, where: string, ...params: SqlStorageValue[]): Promise<string[]> {
  const bucket = env.LOCAL_VECTOR_INDEX.get(env.LOCAL_VECTOR_INDEX.idFromName(bucketOf(tenantId)));
  return runInDurableObject(bucket, async (_instance, state) =>
    state.storage.sql
      .exec<{ id: string }>(`SELECT id FROM tenant_vectors WHERE tenant_id = ? AND (${where})`, tenantId, ...params)
      .toArray()
      .map((row) => row.id),
  );
}
