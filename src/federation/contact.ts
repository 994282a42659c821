import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { AppError } from "../errors.ts";
import { log } from "../log.ts";
import type { FetchLimits } from "./guarded-fetch.ts";
import { type Contact, type Upstream, withUpstream } from "./mcp-connection.ts";
import { OAuthBearer } from "./oauth-bearer.ts";
import { freshOAuth } from "./oauth-refresh.ts";
import { scrubError, scrubValue, secretsOf } from "./redact.ts";
import { openHeaders } from "./secrets.ts";
import {
  type CachedTool,
  markToolsStale,
  recordFailure,
  recordSuccess,
  recordToolError,
  type ServerRecord,
} from "./server-store.ts";
import type { FederationService } from "./service.ts";
import { isAnsweredRpcError, upstreamError } from "./upstream-error.ts";
import { checkOutboundUrl } from "./url-guard.ts";

const MAX_TOOLS = 500;
const MAX_PAGES = 10;
const MAX_DESCRIPTION = 4_000;
const MAX_CACHED_BYTES = 1_000_000;

/**
 * The server's URL re-checked under today's rules, its headers decrypted and, for an OAuth server,
 * its access token (refreshed first when it is about to expire), renewed if the server refuses it.
 * Ready to connect.
 */
export async function upstreamOf(
  service: FederationService,
  server: ServerRecord,
): Promise<{ upstream: Upstream; bearer?: OAuthBearer }> {
  checkOutboundUrl(server.url, { allowLocal: service.allowLocalUrls });
  const headers = server.headersSealed
    ? await openHeaders({
        secret: service.secretsKey,
        older: service.olderSecretsKeys,
        sealed: server.headersSealed,
        binding: sealBinding(server),
      })
    : {};
  const upstream: Upstream = { url: server.url, headers, transport: server.transport };
  if (server.authType !== "oauth") return { upstream };
  const bearer = new OAuthBearer(service, server, await freshOAuth(service, server));
  return { upstream: { ...upstream, bearer }, bearer };
}

/** What a server's sealed headers are bound to: its workshop and id. */
export function sealBinding(server: Pick<ServerRecord, "tenantId" | "id">): string {
  return `${server.tenantId}/${server.id}`;
}

/** How one contact runs: its limits, and who it is for (the pool of sessions it may reuse). */
export interface ContactPlan {
  limits: Omit<FetchLimits, "allowLocal">;
  /** The user a tool call is made for, or `null` for the workshop's own work (tool lists); see `SessionScope`. */
  caller: string | null;
  /** The tool the contact calls, if it calls one: an error that tool answers with is its own, not the server's. */
  tool?: string;
}

/**
 * Connects to a server and runs `use`, recording health either way (latency and transport on
 * success, a safe message on failure). A JSON-RPC error answered to a call of `plan.tool` is
 * counted as that tool's error instead, leaving health alone: the server was reached, and its
 * other tools may work. A tool-list-changed notification marks the cache stale.
 * Header values, tokens and session ids are masked in whatever comes back.
 */
export async function contact<T>(
  service: FederationService,
  server: ServerRecord,
  { limits, caller, tool }: ContactPlan,
  use: (client: Client, options: { timeout: number }) => Promise<T>,
  recordTools?: (value: T) => CachedTool[],
): Promise<Contact<T>> {
  if (service.relayed) {
    throw new AppError(
      "forbidden",
      "This request was relayed by a Weft federation; it does not reach external MCP servers in turn, so servers cannot call each other in a loop.",
    );
  }
  const where = { db: service.db, tenantId: server.tenantId, id: server.id };
  let bearer: OAuthBearer | undefined;
  let headers: Record<string, string> = {};
  const sessionIds: string[] = [];
  // Tokens may be renewed and sessions opened during the contact: the secrets are gathered when needed.
  const secrets = () => secretsOf(headers, [...(bearer?.secrets() ?? []), ...sessionIds]);
  try {
    const prepared = await upstreamOf(service, server);
    bearer = prepared.bearer;
    headers = prepared.upstream.headers;
    let changed = false;
    const contacted = await withUpstream(prepared.upstream, { ...limits, allowLocal: service.allowLocalUrls }, use, {
      onToolsChanged: () => {
        changed = true;
      },
      reuse: { tenantId: server.tenantId, serverId: server.id, caller },
      onSessionId: (sessionId) => sessionIds.push(sessionId),
    });
    const value = scrubValue(contacted.value, secrets());
    if (typeof value === "string" && typeof contacted.value !== "string") {
      throw upstreamError(`${server.name} answered with something that could not be cleaned of secrets.`, { retryable: false });
    }
    const result = { ...contacted, value: value as T };
    await recordSuccess({
      ...where,
      latencyMs: result.latencyMs,
      transport: result.transport,
      tools: recordTools?.(result.value),
    });
    if (changed) await markToolsStale(where);
    return result;
  } catch (caught) {
    const error = scrubError(caught, secrets());
    const message = error instanceof Error ? error.message : "unknown failure";
    if (tool !== undefined && isAnsweredRpcError(error)) {
      log("warn", "mcp_tool_failed", { server_id: server.id, tenant_id: server.tenantId, tool, error });
      await recordToolError({ ...where, message: `${tool}: ${message}` });
    } else {
      log("warn", "mcp_server_failed", { server_id: server.id, tenant_id: server.tenantId, error });
      await recordFailure({ ...where, message });
    }
    throw error;
  }
}

/** Lists a server's tools now (every page, bounded) and caches them with when they were fetched. */
export async function refreshTools(
  service: FederationService,
  server: ServerRecord,
  limits = service.limits,
): Promise<{ tools: CachedTool[]; latencyMs: number }> {
  const result = await contact(service, server, { limits, caller: null }, listAllTools, (tools) => tools);
  return { tools: result.value, latencyMs: result.latencyMs };
}

async function listAllTools(client: Client, options: { timeout: number }): Promise<CachedTool[]> {
  const tools: CachedTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES && tools.length < MAX_TOOLS; page++) {
    const listed = await client.listTools(cursor ? { cursor } : {}, options);
    for (const tool of listed.tools.slice(0, MAX_TOOLS - tools.length)) {
      tools.push({
        name: tool.name,
        ...(tool.title ? { title: tool.title } : {}),
        description: (tool.description ?? "").slice(0, MAX_DESCRIPTION),
        inputSchema: tool.inputSchema,
        annotations: { ...(tool.annotations ?? {}) },
      });
    }
    cursor = listed.nextCursor;
    if (!cursor) break;
  }
  if (JSON.stringify(tools).length > MAX_CACHED_BYTES) {
    throw upstreamError(`The server's tool list is larger than ${MAX_CACHED_BYTES} bytes.`, { retryable: false });
  }
  return tools;
}

/** Whether the cached tool list is younger than the TTL. */
export function isFresh(server: ServerRecord, ttlSeconds: number, now = Date.now()): boolean {
  if (!server.tools || !server.toolsFetchedAt) return false;
  return now - Date.parse(server.toolsFetchedAt) < ttlSeconds * 1000;
}
