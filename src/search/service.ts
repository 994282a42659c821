import type { SearchBackends } from "./backends.ts";
import type { ChunkOptions } from "./chunker.ts";

/** What the search domain runs on: the database, the configured backends and the chunk budget. */
export interface SearchService {
  db: D1Database;
  backends: SearchBackends;
  chunking: ChunkOptions;
}
