import { badRequest } from "../errors.ts";
import type { ServerView } from "../shapes.ts";
import { sealBinding } from "./contact.ts";
import { openHeaders, sealHeaders } from "./secrets.ts";
import { getServer, insertServer, newServerId, type ServerRecord, updateServer } from "./server-store.ts";
import type { FederationService } from "./service.ts";
import { checkOutboundUrl } from "./url-guard.ts";

/** The public view of a stored server. */
export function serverView(server: ServerRecord): ServerView {
  const failing = server.lastErrorAt !== null && (server.lastSuccessAt === null || server.lastErrorAt > server.lastSuccessAt);
  return {
    id: server.id,
    name: server.name,
    url: server.url,
    header_names: server.headerNames,
    enabled: server.enabled,
    expose_on_mcp: server.exposeOnMcp,
    transport: server.transport,
    auth: server.authType,
    health: {
      status: server.needsSignIn ? "needs_sign_in" : failing ? "failing" : server.lastSuccessAt ? "ok" : "unknown",
      last_success_at: server.lastSuccessAt,
      last_error: server.lastError,
      last_error_at: server.lastErrorAt,
      tool_count: server.toolCount,
      latency_ms: server.latencyMs,
      tools_fetched_at: server.toolsFetchedAt,
      tool_errors: { count: server.toolErrorCount, last_error: server.lastToolError, last_error_at: server.lastToolErrorAt },
    },
    created_at: server.createdAt,
    updated_at: server.updatedAt,
  };
}

/** Registers a server for the caller's workshop: URL checked, header values sealed. */
export async function registerServer({
  service,
  input,
}: {
  service: FederationService;
  input: {
    name: string;
    url: string;
    headers?: Record<string, string>;
    enabled: boolean;
    expose_on_mcp: boolean;
    auth: "headers" | "oauth";
  };
}): Promise<ServerRecord> {
  const url = checkOutboundUrl(input.url, { allowLocal: service.allowLocalUrls }).href;
  const id = newServerId();
  const headers = input.headers ?? {};
  const headerNames = Object.keys(headers);
  const headersSealed = headerNames.length
    ? await sealHeaders({ secret: service.secretsKey, headers, binding: sealBinding({ tenantId: service.tenantId, id }) })
    : null;
  return insertServer({
    db: service.db,
    record: {
      id,
      tenantId: service.tenantId,
      name: input.name,
      url,
      headerNames,
      headersSealed,
      enabled: input.enabled,
      exposeOnMcp: input.expose_on_mcp,
      authType: input.auth,
    },
  });
}

/**
 * Changes a server of the caller's workshop; a new URL is checked, new headers replace the old
 * ones. A header given as `null` keeps its stored value, so a form that never sees the values can
 * still rename, add or drop the others; one with no stored value is 400.
 */
export async function changeServer({
  service,
  id,
  input,
}: {
  service: FederationService;
  id: string;
  input: {
    name?: string;
    url?: string;
    headers?: Record<string, string | null> | null;
    enabled?: boolean;
    expose_on_mcp?: boolean;
  };
}): Promise<ServerRecord> {
  const existing = await getServer({ ...service, id });
  const changes: Parameters<typeof updateServer>[0]["changes"] = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.url !== undefined) changes.url = checkOutboundUrl(input.url, { allowLocal: service.allowLocalUrls }).href;
  if (input.enabled !== undefined) changes.enabled = input.enabled;
  if (input.expose_on_mcp !== undefined) changes.exposeOnMcp = input.expose_on_mcp;
  // Stored values are write-only: if they followed the URL to another origin, whoever may edit the
  // URL could read them at a server of their own. There they must be given again (or dropped).
  const keepAllowed = changes.url === undefined || new URL(changes.url).origin === new URL(existing.url).origin;
  if (!keepAllowed && input.headers === undefined && existing.headersSealed) {
    throw badRequest(
      `The new URL is on another origin, where stored header values are not sent: give the headers (${existing.headerNames.join(", ")}) again, or headers: null to drop them.`,
    );
  }
  if (input.headers !== undefined) {
    const headers = await withKeptValues(service, existing, input.headers ?? {}, keepAllowed);
    changes.headerNames = Object.keys(headers);
    changes.headersSealed = changes.headerNames.length
      ? await sealHeaders({ secret: service.secretsKey, headers, binding: sealBinding(existing) })
      : null;
  }
  return updateServer({ ...service, id, changes });
}

/**
 * The headers to store: given values as they are, `null` ones replaced by the stored value of the
 * same name, unless the URL moves to another origin (`keepAllowed` false).
 */
async function withKeptValues(
  service: FederationService,
  server: ServerRecord,
  given: Record<string, string | null>,
  keepAllowed: boolean,
): Promise<Record<string, string>> {
  const entries = Object.entries(given);
  const kept = entries.find(([, value]) => value === null);
  if (kept && !keepAllowed) {
    throw badRequest(`Header '${kept[0]}' cannot keep its stored value: the new URL is on another origin; give its value.`);
  }
  const stored = new Map<string, string>();
  if (server.headersSealed && kept) {
    const opened = await openHeaders({
      secret: service.secretsKey,
      older: service.olderSecretsKeys,
      sealed: server.headersSealed,
      binding: sealBinding(server),
    });
    for (const [name, value] of Object.entries(opened)) stored.set(name.toLowerCase(), value);
  }
  return Object.fromEntries(
    entries.map(([name, value]) => {
      const kept = value ?? stored.get(name.toLowerCase());
      if (kept === undefined) throw badRequest(`Header '${name}' has no stored value to keep; give its value.`);
      return [name, kept];
    }),
  );
}
