import type { PendingAction } from "./business/pending-action.ts";
import type { Config } from "./config.ts";
import type { ConsultSession } from "./consult/consult-session.ts";
import { type ExternalToolProvider, NO_EXTERNAL_TOOLS } from "./federation/external-tools.ts";
import { type SearchBackends, searchBackends } from "./search/backends.ts";
import type { ChunkOptions } from "./search/chunker.ts";

/** What the search domain runs on: the database, the configured backends and the chunk budget. */
export interface SearchService {
  db: D1Database;
  backends: SearchBackends;
  chunking: ChunkOptions;
}

/** What the consultation domain runs on: stored trees, session objects, and their idle time. */
export interface ConsultService {
  db: D1Database;
  sessions: DurableObjectNamespace<ConsultSession>;
  ttlSeconds: number;
}

/** What the business domain runs on: workshop records, pending-action objects, their time to live, a clock. */
export interface BusinessService {
  db: D1Database;
  actions: DurableObjectNamespace<PendingAction>;
  ttlSeconds: number;
  /** The current time; "today" and "this month" are read from it in the workshop's time zone. */
  clock: () => Date;
}

/**
 * The domain services, wired once per request from the bindings and the configuration. Faces and
 * tools receive these; domains receive the one they use, never `Env`.
 */
export interface Services {
  search: SearchService;
  consult: ConsultService;
  business: BusinessService;
  /** The workshop's tools from external MCP servers. */
  external: ExternalToolProvider;
}

/** Wires every domain service from the bindings and the parsed configuration. */
export function buildServices(env: Env, config: Config): Services {
  return {
    search: { db: env.DB, backends: searchBackends(env, config), chunking: config.chunking },
    consult: { db: env.DB, sessions: env.CONSULT_SESSION, ttlSeconds: config.consultSessionTtlSeconds },
    business: {
      db: env.DB,
      actions: env.PENDING_ACTION,
      ttlSeconds: config.pendingActionTtlSeconds,
      clock: () => new Date(),
    },
    external: NO_EXTERNAL_TOOLS,
  };
}
