import { executorRegistry } from "./actions/types.ts";
import type { Directory } from "./auth/directory.ts";
import { directoryPeople } from "./auth/directory-people.ts";
import { orderExecutor, pieceRecordExecutor } from "./business/executors.ts";
import type { BusinessService } from "./business/service.ts";
import { chatModel } from "./chat/models.ts";
import type { Config } from "./config.ts";
import { externalCallExecutor } from "./federation/confirmed-call.ts";
import { registryToolProvider } from "./federation/provider.ts";
import { type FederationService, federationLimits } from "./federation/service.ts";
import { type SearchBindings, searchBackends } from "./search/backends.ts";
import type { ToolServices } from "./tools/tool.ts";
import type { WorkshopDb } from "./workshop-db.ts";

/**
 * Every service a face has for the caller's workshop: the domains the tools run on, and the
 * faces' own storage (chat history) and chat model.
 */
export interface Services extends ToolServices {
  /** Where the workshop's chats and their messages are kept. */
  chats: WorkshopDb;
  /** The configured chat model; `timeZone` is the workshop's, for the offline model's "今天". */
  chatModel: (timeZone: string) => ReturnType<typeof chatModel>;
}

/** Which face the services are wired for: `/mcp` re-exposes only servers marked `expose_on_mcp`. */
export type Face = "mcp" | "chat";

/** The workshop a request acts for, once authentication has said whose it is. */
export interface WorkshopRef {
  id: string;
}

/** What the services are wired for besides the workshop (each has a default). */
export interface WiringOptions {
  /** `/mcp` re-exposes only servers marked `expose_on_mcp`. */
  face?: Face;
  /** The request came through a Weft federation client, and reaches no external server in turn. */
  relayed?: boolean;
  /**
   * The origin the request came to, for links people follow (the confirm page); a configured
   * `PUBLIC_URL` wins over it. Without either the links are relative (`/actions/<id>`), for wiring
   * that gives nobody a link.
   */
  origin?: string;
}

/**
 * The directory: workshops, people, credentials, web sessions and OAuth connections, which are
 * read before anyone's workshop is known (to learn it). Built for every request by the app's first
 * middleware.
 */
export function directoryFor(env: Env): Directory {
  return { db: env.DB, limiters: env.AUTH_LIMITER, oauthKv: env.OAUTH_KV };
}

/** The bindings search may run on: Workers AI and Vectorize where configured, the local index. */
export function searchBindingsOf(env: Env): SearchBindings {
  return { ai: env.AI, vectorize: env.VECTORIZE, localVectorIndex: env.LOCAL_VECTOR_INDEX };
}

/**
 * Wires every domain service for one workshop, after authentication has named it: the only way
 * any face (MCP, chat, REST) reaches a workshop's data, and the only code that reads the bindings
 * that hold it. The executors of every kind of pending write are registered here, and only here.
 *
 * @example c.set("services", servicesFor(c.env, c.var.config, { id: user.tenantId }, { origin: new URL(c.req.url).origin }))
 */
export function servicesFor(
  env: Env,
  config: Config,
  workshop: WorkshopRef,
  { face = "chat", relayed = false, origin = "" }: WiringOptions = {},
): Services {
  const store: WorkshopDb = { db: env.DB, tenantId: workshop.id };
  const federation: FederationService = {
    ...store,
    relayed,
    allowLocalUrls: config.federation.allowLocalUrls,
    secretsKey: config.federation.secretsKey,
    toolListTtlSeconds: config.federation.toolListTtlSeconds,
    ...federationLimits(config.federation.callTimeoutMs),
  };
  const business: BusinessService = { ...store, clock: () => new Date() };
  const backends = searchBackends(searchBindingsOf(env), config);
  return {
    search: { ...store, backends, chunking: config.chunking },
    consult: { ...store, sessions: env.CONSULT_SESSION, ttlSeconds: config.consultSessionTtlSeconds },
    business,
    actions: {
      ...store,
      objects: env.PENDING_ACTION,
      ttlSeconds: config.pendingActionTtlSeconds,
      executors: executorRegistry([pieceRecordExecutor(business), orderExecutor(business), externalCallExecutor(federation)]),
      people: directoryPeople(directoryFor(env).db, workshop.id),
      origin: config.publicUrl ?? origin,
    },
    federation,
    external: registryToolProvider(federation, face),
    chats: store,
    chatModel: (timeZone) => chatModel({ ai: env.AI, config, timeZone }),
  };
}
