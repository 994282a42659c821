import { executorRegistry } from "./actions/types.ts";
import type { Directory } from "./auth/directory.ts";
import { directoryPeople } from "./auth/directory-people.ts";
import { adjustmentExecutor } from "./business/adjustment-changes.ts";
import { processExecutor } from "./business/catalog-changes.ts";
import { employeeExecutor } from "./business/employee-changes.ts";
import { employeeImportExecutor } from "./business/employee-import.ts";
import { orderExecutor, pieceRecordExecutor } from "./business/executors.ts";
import { orderUpdateExecutor } from "./business/order-changes.ts";
import { processPriceExecutor } from "./business/price-changes.ts";
import { priceImportExecutor } from "./business/price-import.ts";
import type { BusinessService } from "./business/service.ts";
import { workshopSettingsExecutor } from "./business/workshop-changes.ts";
import { chatModel } from "./chat/models.ts";
import type { ChatStreams } from "./chat/stream-run.ts";
import type { Config } from "./config.ts";
import { AppError } from "./errors.ts";
import { externalCallExecutor } from "./federation/confirmed-call.ts";
import { registryToolProvider } from "./federation/provider.ts";
import { type FederationService, federationLimits } from "./federation/service.ts";
import { fencedDatabase } from "./placement/fence.ts";
import { missingMigrations } from "./schema.ts";
import { type SearchBindings, searchBackends } from "./search/backends.ts";
import type { Ingestion } from "./search/ingestion.ts";
import type { ToolServices } from "./tools/tool.ts";
import { PRIMARY_SHARD, type WorkshopDb, type WorkshopRef } from "./workshop-db.ts";

export { PRIMARY_SHARD, type WorkshopRef };

/**
 * Every service a face has for the caller's workshop: the domains the tools run on, and the
 * faces' own storage (chat history) and chat model.
 */
export interface Services extends ToolServices {
  /** Where the workshop's chats and their messages are kept. */
  chats: WorkshopDb;
  /** Where each chat's running reply is logged, to resume and stop it; null with `CHAT_STREAM_LOG=none`. */
  chatStreams: ChatStreams | null;
  /** The configured chat model; `timeZone` is the workshop's, for the offline model's "今天". */
  chatModel: (timeZone: string) => ReturnType<typeof chatModel>;
  /**
   * With read replication: the D1 session's bookmark after this request's queries, for the client
   * to send back so its next request reads no older data than it wrote; `null` otherwise.
   */
  bookmark: () => string | null;
}

/** Which face the services are wired for: `/mcp` re-exposes only servers marked `expose_on_mcp`. */
export type Face = "mcp" | "chat";

const SHARD_BINDING = /^SHARD_[0-9]{1,4}$/;
/** What a write to a workshop being moved is told to wait: about the rest of a move's copy. */
const MOVING_RETRY_AFTER_SECONDS = 60;
const databases = new WeakMap<Env, ReadonlyMap<string, D1Database>>();

/**
 * The databases workshops may live on, by binding name: the primary one and every `SHARD_n` D1
 * binding in wrangler.toml (adding a shard is a binding and a deploy). Read once per isolate.
 */
export function shardsOf(env: Env): ReadonlyMap<string, D1Database> {
  let found = databases.get(env);
  if (!found) {
    const shards = new Map<string, D1Database>([[PRIMARY_SHARD, env.DB]]);
    for (const [name, binding] of Object.entries(env)) {
      if (SHARD_BINDING.test(name) && isD1(binding)) shards.set(name, binding);
    }
    found = shards;
    databases.set(env, found);
  }
  return found;
}

function isD1(binding: unknown): binding is D1Database {
  const candidate = binding as Partial<D1Database> | null;
  return typeof candidate?.prepare === "function" && typeof candidate.batch === "function";
}

// What each database of this isolate lacks of the expected migrations: once a database is found
// current it is never asked again; one found behind is asked again after a while (an operator is
// applying its migrations).
const schemaChecks = new Map<D1Database, { missing: Promise<string[]>; at: number }>();
const RECHECK_BEHIND_MS = 15_000;

/** Forgets what this isolate knows of every database's migrations (for tests that change them). */
export function forgetSchemaChecks(): void {
  schemaChecks.clear();
}

/** The expected migrations `db` has not applied, asked once per isolate while it is current. */
export function schemaMissing(db: D1Database): Promise<string[]> {
  const known = schemaChecks.get(db);
  if (known && Date.now() - known.at < RECHECK_BEHIND_MS) return known.missing;
  const missing = db
    .prepare("SELECT name FROM d1_migrations")
    .all<{ name: string }>()
    .then(({ results }) => missingMigrations(results.map((r) => r.name)));
  const check = { missing, at: Date.now() };
  schemaChecks.set(db, check);
  missing.then(
    (names) => {
      if (names.length === 0) check.at = Number.POSITIVE_INFINITY;
    },
    () => schemaChecks.delete(db),
  );
  return missing;
}

/**
 * Refuses to serve a workshop whose database has not applied every migration this code expects
 * (503 `schema_behind`, naming them): its code and data would disagree. Checked on a workshop's
 * first request in an isolate.
 */
export async function requireCurrentSchema(env: Env, workshop: WorkshopRef): Promise<void> {
  const missing = await schemaMissing(shardFor(env, workshop));
  if (missing.length > 0) {
    throw new AppError(
      "schema_behind",
      `This workshop's database (${workshop.shard}) lacks migrations this version needs: ${missing.join(", ")}. The operator must apply them (docs/deployment.md).`,
      { details: { database: workshop.shard, missing } },
    );
  }
}

/** The database a workshop's data lives on; 503 when the directory names one this deployment lacks. */
export function shardFor(env: Env, workshop: WorkshopRef): D1Database {
  const db = shardsOf(env).get(workshop.shard);
  if (!db) {
    throw new AppError(
      "unavailable",
      `This workshop's data is on a database this deployment does not have (${workshop.shard}). The operator must bind it again.`,
    );
  }
  return db;
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
  /** A D1 bookmark the client sent back (with read replication). */
  bookmark?: string | undefined;
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

/** The durable job engine: one Workflow instance a job, its id the job's. */
function ingestionOf(env: Env): Ingestion {
  return {
    start: async (params) => {
      await env.INGESTION.create({ id: params.jobId, params });
    },
  };
}

/**
 * Wires every domain service for one workshop, after authentication has named it: the only way
 * any face (MCP, chat, REST) reaches a workshop's data, and the only code that reads the bindings
 * that hold it. The executors of every kind of pending write are registered here, and only here.
 *
 * @example c.set("services", servicesFor(c.env, c.var.config, { id: user.tenantId, shard: "SHARD_1" }, { origin: new URL(c.req.url).origin }))
 */
export function servicesFor(
  env: Env,
  config: Config,
  workshop: WorkshopRef,
  { face = "chat", relayed = false, origin = "", bookmark }: WiringOptions = {},
): Services {
  const shard = shardFor(env, workshop);
  const session = config.readReplication ? sessionOf(shard, bookmark) : null;
  const db = session?.db ?? shard;
  const store: WorkshopDb = {
    db: workshop.moving ? fencedDatabase(db, MOVING_RETRY_AFTER_SECONDS) : db,
    tenantId: workshop.id,
  };
  const federation: FederationService = {
    ...store,
    relayed,
    allowLocalUrls: config.federation.allowLocalUrls,
    secretsKey: config.federation.secretsKey,
    olderSecretsKeys: config.federation.olderSecretsKeys,
    toolListTtlSeconds: config.federation.toolListTtlSeconds,
    ...federationLimits(config.federation.callTimeoutMs),
  };
  const directory = directoryFor(env).db;
  const business: BusinessService = {
    ...store,
    clock: () => new Date(),
    directory: {
      // On the primary database the workshop's record is the directory's entry, written with its change.
      setWorkshopName: async (name) => {
        if (shard === directory) return;
        await directory.prepare("UPDATE tenants SET name = ?2 WHERE id = ?1").bind(workshop.id, name).run();
      },
    },
  };
  const backends = searchBackends(searchBindingsOf(env), config);
  return {
    search: { ...store, backends, chunking: config.chunking, ingestion: ingestionOf(env) },
    consult: { ...store, sessions: env.CONSULT_SESSION, ttlSeconds: config.consultSessionTtlSeconds },
    business,
    actions: {
      ...store,
      objects: env.PENDING_ACTION,
      ttlSeconds: config.pendingActionTtlSeconds,
      executors: executorRegistry([
        pieceRecordExecutor(business),
        orderExecutor(business),
        employeeExecutor(business),
        processExecutor(business),
        processPriceExecutor(business),
        orderUpdateExecutor(business),
        adjustmentExecutor(business),
        workshopSettingsExecutor(business),
        employeeImportExecutor(business),
        priceImportExecutor(business),
        externalCallExecutor(federation),
      ]),
      people: directoryPeople(directoryFor(env).db, workshop.id),
      origin: config.publicUrl ?? origin,
    },
    federation,
    external: registryToolProvider(federation, face),
    chats: store,
    chatStreams: config.chat.streamLog === "durable-object" ? { objects: env.CHAT_STREAM, tenantId: workshop.id } : null,
    chatModel: (timeZone) => chatModel({ ai: env.AI, config, timeZone }),
    bookmark: () => session?.bookmark() ?? null,
  };
}

/**
 * A D1 session over a shard, as the domains' database: its reads may come from a replica, but
 * never one older than `bookmark` (the client's last write) or than its own writes. Without a
 * bookmark its first query goes to the primary, so a client that keeps none still reads its writes.
 */
function sessionOf(db: D1Database, bookmark: string | undefined): { db: D1Database; bookmark: () => string | null } {
  const session = db.withSession(bookmark ?? "first-primary");
  const handle: D1Database = {
    prepare: (sql) => session.prepare(sql),
    batch: (statements) => session.batch(statements),
    exec: () => Promise.reject(new Error("exec is not available in a D1 session; use prepare")),
    withSession: (constraint) => db.withSession(constraint),
    dump: () => db.dump(),
  };
  return { db: handle, bookmark: () => session.getBookmark() };
}
