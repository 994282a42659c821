import type { WorkshopDb } from "../workshop-db.ts";
import type { SearchBackends } from "./backends.ts";
import type { ChunkOptions } from "./chunker.ts";
import type { Ingestion } from "./ingestion.ts";

/**
 * What the search domain runs on: the workshop's database, the configured backends, the chunk
 * budget, and the durable job engine that ingests large files.
 */
export interface SearchService extends WorkshopDb {
  backends: SearchBackends;
  chunking: ChunkOptions;
  ingestion: Ingestion;
}
