import { executorRegistry } from "./actions/types.ts";
import { orderExecutor, pieceRecordExecutor } from "./business/executors.ts";
import type { BusinessService } from "./business/service.ts";
import type { Config } from "./config.ts";
import { externalCallExecutor } from "./federation/confirmed-call.ts";
import { registryToolProvider } from "./federation/provider.ts";
import { type FederationService, federationLimits } from "./federation/service.ts";
import { searchBackends } from "./search/backends.ts";
import type { ToolServices } from "./tools/tool.ts";

/** Every domain service, as one request's faces and tools receive them. */
export type Services = ToolServices;

/** Which face the services are wired for: `/mcp` re-exposes only servers marked `expose_on_mcp`. */
export type Face = "mcp" | "chat";

/**
 * Wires every domain service from the bindings and the parsed configuration, once per request
 * (the app's first middleware); faces pass them on, nothing rebuilds them. `relayed` marks a
 * request that came through a Weft federation client, which reaches no external server in turn.
 * The executors of every kind of pending write are registered here, and only here.
 */
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
  const business: BusinessService = { db: env.DB, clock: () => new Date() };
  return {
    search: { db: env.DB, backends: searchBackends(env, config), chunking: config.chunking },
    consult: { db: env.DB, sessions: env.CONSULT_SESSION, ttlSeconds: config.consultSessionTtlSeconds },
    business,
    actions: {
      db: env.DB,
      objects: env.PENDING_ACTION,
      ttlSeconds: config.pendingActionTtlSeconds,
      executors: executorRegistry([pieceRecordExecutor(business), orderExecutor(business), externalCallExecutor(federation)]),
    },
    federation,
    external: registryToolProvider(federation, face),
  };
}

/** The same services with external tools served as `face` serves them (`/mcp`: only servers marked `expose_on_mcp`). */
export function servicesForFace(services: Services, face: Face): Services {
  return { ...services, external: registryToolProvider(services.federation, face) };
}
