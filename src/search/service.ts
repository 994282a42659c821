import type { WorkshopDb } from "../workshop-db.ts";
import type { SearchBackends } from "./backends.ts";
import type { ChunkOptions } from "./chunker.ts";

/** What the search domain runs on: the workshop's database, the configured backends and the chunk budget. */
export interface SearchService extends WorkshopDb {
  backends: SearchBackends;
  chunking: ChunkOptions;
}
