import { badRequest } from "../errors.ts";
import { PRIMARY_SHARD } from "../workshop-db.ts";

/** How much data a database holds, in bytes, as D1 reports it with any statement's result. */
export async function databaseBytes(db: D1Database): Promise<number> {
  const { meta } = await db.prepare("SELECT 1").run();
  return Number((meta as { size_after?: number }).size_after ?? 0);
}

/**
 * The shard a new workshop is placed on: `wanted` if the operator chose one (it must be bound),
 * else the shard holding the least data. Where shards are bound, the primary database is left to
 * the directory (and to workshops placed on it before shards); without any, it is the only place.
 */
export async function chooseShard(shards: ReadonlyMap<string, D1Database>, wanted?: string): Promise<string> {
  if (wanted !== undefined) {
    if (!shards.has(wanted))
      throw badRequest(`No shard '${wanted.slice(0, 40)}' is bound (known: ${[...shards.keys()].join(", ")}).`);
    return wanted;
  }
  const candidates = [...shards.keys()].filter((name) => name !== PRIMARY_SHARD);
  if (candidates.length === 0) return PRIMARY_SHARD;
  const sizes = await Promise.all(candidates.map((name) => databaseBytes(shards.get(name) as D1Database)));
  let best = 0;
  sizes.forEach((size, i) => {
    if (size < (sizes[best] as number)) best = i;
  });
  return candidates[best] as string;
}

/**
 * Writes a new workshop's own record on its shard, which everything of the workshop there refers
 * to. Done before the directory learns of the workshop, so the directory never names a shard
 * that cannot hold its data; a record left by a sign-up that failed after it is harmless.
 */
export async function recordWorkshop(db: D1Database, { id, name }: { id: string; name: string }): Promise<void> {
  await db
    .prepare("INSERT INTO tenants (id, name) VALUES (?1, ?2) ON CONFLICT (id) DO UPDATE SET name = excluded.name")
    .bind(id, name)
    .run();
}
