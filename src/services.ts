import type { PendingAction } from "./business/pending-action.ts";
import type { Config } from "./config.ts";
import type { ConsultSession } from "./consult/consult-session.ts";
import type { ExternalToolProvider } from "./federation/external-tools.ts";
import { registryToolProvider } from "./federation/provider.ts";
import { type FederationService, federationLimits } from "./federation/service.ts";
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
  /** The registry of the workshop's external MCP servers. */
  federation: FederationService;
  /** The workshop's tools from external MCP servers, as the face building these services serves them. */
  external: ExternalToolProvider;
}

/** Which face the services are wired for: `/mcp` re-exposes only servers marked `expose_on_mcp`. */
export type Face = "mcp" | "chat";

/** Wires every domain service from the bindings and the parsed configuration. */
export function buildServices(
  env: Env,
  config: Config,
  { face = "chat", relayed = false }: { face?: Face; relayed?: boolean } = {},
): Services {
  const federation: FederationService = {
    db: env.DB,
    relayed,
    allowLocalUrls: config.federation.allowLocalUrls,
    secretsKey: config.federation.secretsKey,
    toolListTtlSeconds: config.federation.toolListTtlSeconds,
    ...federationLimits(config.federation.callTimeoutMs),
  };
  return {
    search: { db: env.DB, backends: searchBackends(env, config), chunking: config.chunking },
    consult: { db: env.DB, sessions: env.CONSULT_SESSION, ttlSeconds: config.consultSessionTtlSeconds },
    business: {
      db: env.DB,
      actions: env.PENDING_ACTION,
      ttlSeconds: config.pendingActionTtlSeconds,
      clock: () => new Date(),
    },
    federation,
    external: registryToolProvider(federation, face),
  };
}

/** The same services with external tools served as `face` serves them (`/mcp`: only servers marked `expose_on_mcp`). */
export function servicesForFace(services: Services, face: Face): Services {
  return { ...services, external: registryToolProvider(services.federation, face) };
}
