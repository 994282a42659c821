import { databaseBytes } from "./choose.ts";

/** How much of a shard one workshop uses: counts of its main rows and the bytes of its text. */
export interface WorkshopUsage {
  documents: number;
  chunks: number;
  piece_records: number;
  chats: number;
  /** The bytes of its chunks' text: most of what a workshop stores. */
  text_bytes: number;
}

/** A shard as the operator sees it: its size and how many workshops the directory places on it. */
export interface ShardSummary {
  name: string;
  bytes: number;
  workshops: number;
}

const EMPTY: WorkshopUsage = { documents: 0, chunks: 0, piece_records: 0, chats: 0, text_bytes: 0 };

/**
 * Each listed workshop's usage, read from the shard each lives on: one batch a shard, counts
 * only (the operator sees how big a workshop is, never what it holds).
 */
export async function workshopUsage(
  shards: ReadonlyMap<string, D1Database>,
  workshops: readonly { id: string; shard: string }[],
): Promise<Map<string, WorkshopUsage>> {
  const usage = new Map<string, WorkshopUsage>(workshops.map((w) => [w.id, { ...EMPTY }]));
  const byShard = Map.groupBy(workshops, (w) => w.shard);
  await Promise.all(
    [...byShard].map(async ([shard, list]) => {
      const db = shards.get(shard);
      if (!db) return;
      const ids = JSON.stringify(list.map((w) => w.id));
      const count = (table: string, column: string, value = "COUNT(*)") =>
        db
          .prepare(
            `SELECT tenant_id AS id, ${value} AS n FROM ${table} WHERE tenant_id IN (SELECT value FROM json_each(?1)) GROUP BY tenant_id`,
          )
          .bind(ids)
          .all<{ id: string; n: number }>()
          .then(({ results }) => {
            for (const row of results) {
              const entry = usage.get(row.id);
              if (entry) entry[column as keyof WorkshopUsage] = Number(row.n);
            }
          });
      await Promise.all([
        count("documents", "documents"),
        count("chunks", "chunks"),
        count("piece_records", "piece_records"),
        count("chats", "chats"),
        count("chunks", "text_bytes", "SUM(length(CAST(content AS BLOB)))"),
      ]);
    }),
  );
  return usage;
}

/** Every bound shard with its size, and how many workshops live on it (from the directory). */
export async function shardSummaries(shards: ReadonlyMap<string, D1Database>, directory: D1Database): Promise<ShardSummary[]> {
  const { results } = await directory
    .prepare("SELECT shard, COUNT(*) AS n FROM tenants GROUP BY shard")
    .all<{ shard: string; n: number }>();
  const counts = new Map(results.map((r) => [r.shard, r.n]));
  return Promise.all(
    [...shards].map(async ([name, db]) => ({ name, bytes: await databaseBytes(db), workshops: counts.get(name) ?? 0 })),
  );
}
