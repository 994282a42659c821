import { conflict, notFound } from "../errors.ts";
import type { JsonSchema } from "../shapes.ts";

/** A tool as an external server listed it, kept in the cache. */
export interface CachedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema;
  annotations: Record<string, unknown>;
}

/** A registered server as stored, sealed headers included: never leaves the federation domain. */
export interface ServerRecord {
  id: string;
  tenantId: string;
  name: string;
  url: string;
  headerNames: string[];
  headersSealed: string | null;
  authType: "headers" | "oauth";
  oauthSealed: string | null;
  needsSignIn: boolean;
  enabled: boolean;
  exposeOnMcp: boolean;
  transport: "streamable-http" | "sse" | null;
  tools: CachedTool[] | null;
  toolsFetchedAt: string | null;
  toolCount: number | null;
  lastSuccessAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
  latencyMs: number | null;
  /** Errors single tools answered with (`recordToolError`), which leave the server's health alone. */
  toolErrorCount: number;
  lastToolError: string | null;
  lastToolErrorAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A `mcp_servers` row as D1 returns it. */
export interface Row {
  id: string;
  tenant_id: string;
  name: string;
  url: string;
  header_names: string;
  headers_sealed: string | null;
  auth_type: "headers" | "oauth";
  oauth_sealed: string | null;
  needs_sign_in: number;
  enabled: number;
  expose_on_mcp: number;
  transport: "streamable-http" | "sse" | null;
  tools_json: string | null;
  tools_fetched_at: string | null;
  tool_count: number | null;
  last_success_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  latency_ms: number | null;
  tool_error_count: number;
  last_tool_error: string | null;
  last_tool_error_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A row as the domain uses it. */
export function fromRow(row: Row): ServerRecord {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    name: row.name,
    url: row.url,
    headerNames: JSON.parse(row.header_names) as string[],
    headersSealed: row.headers_sealed,
    authType: row.auth_type,
    oauthSealed: row.oauth_sealed,
    needsSignIn: row.needs_sign_in === 1,
    enabled: row.enabled === 1,
    exposeOnMcp: row.expose_on_mcp === 1,
    transport: row.transport,
    tools: row.tools_json ? (JSON.parse(row.tools_json) as CachedTool[]) : null,
    toolsFetchedAt: row.tools_fetched_at,
    toolCount: row.tool_count,
    lastSuccessAt: row.last_success_at,
    lastError: row.last_error,
    lastErrorAt: row.last_error_at,
    latencyMs: row.latency_ms,
    toolErrorCount: row.tool_error_count,
    lastToolError: row.last_tool_error,
    lastToolErrorAt: row.last_tool_error_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** A new server id: not guessable, so ids carry no information across workshops. */
export function newServerId(): string {
  return `mcp_${crypto.randomUUID().replaceAll("-", "")}`;
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && /UNIQUE constraint failed/.test(error.message);
}

/** Registers a server for a workshop; a name already used there is 409. */
export async function insertServer({
  db,
  record,
}: {
  db: D1Database;
  record: Pick<
    ServerRecord,
    "id" | "tenantId" | "name" | "url" | "headerNames" | "headersSealed" | "enabled" | "exposeOnMcp" | "authType"
  >;
}): Promise<ServerRecord> {
  try {
    const row = await db
      .prepare(
        `INSERT INTO mcp_servers (id, tenant_id, name, url, header_names, headers_sealed, enabled, expose_on_mcp, auth_type, needs_sign_in)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      )
      .bind(
        record.id,
        record.tenantId,
        record.name,
        record.url,
        JSON.stringify(record.headerNames),
        record.headersSealed,
        record.enabled ? 1 : 0,
        record.exposeOnMcp ? 1 : 0,
        record.authType,
        record.authType === "oauth" ? 1 : 0,
      )
      .first<Row>();
    if (!row) throw new Error("INSERT ... RETURNING produced no row");
    return fromRow(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`This workshop already has an MCP server named '${record.name}'.`);
    throw error;
  }
}

/** The workshop's servers, by name; `enabledOnly` for the faces, all for the settings list. */
export async function listServers({
  db,
  tenantId,
  enabledOnly = false,
}: {
  db: D1Database;
  tenantId: string;
  enabledOnly?: boolean;
}): Promise<ServerRecord[]> {
  const { results } = await db
    .prepare(`SELECT * FROM mcp_servers WHERE tenant_id = ? ${enabledOnly ? "AND enabled = 1" : ""} ORDER BY name`)
    .bind(tenantId)
    .all<Row>();
  return results.map(fromRow);
}

/** One of the workshop's servers; another workshop's id is 404, the same as an unknown one. */
export async function getServer({ db, tenantId, id }: { db: D1Database; tenantId: string; id: string }): Promise<ServerRecord> {
  const row = await db.prepare("SELECT * FROM mcp_servers WHERE id = ? AND tenant_id = ?").bind(id, tenantId).first<Row>();
  if (!row) throw notFound("No MCP server with this id in your workshop.");
  return fromRow(row);
}

/**
 * Changes a server's settings. A new URL or new headers drop the cached tool list, since it may
 * belong to another server now.
 */
export async function updateServer({
  db,
  tenantId,
  id,
  changes,
}: {
  db: D1Database;
  tenantId: string;
  id: string;
  changes: Partial<Pick<ServerRecord, "name" | "url" | "headerNames" | "headersSealed" | "enabled" | "exposeOnMcp">>;
}): Promise<ServerRecord> {
  const sets: string[] = [];
  const values: unknown[] = [];
  const set = (column: string, value: unknown) => {
    sets.push(`${column} = ?`);
    values.push(value);
  };
  if (changes.name !== undefined) set("name", changes.name);
  if (changes.url !== undefined) set("url", changes.url);
  if (changes.headerNames !== undefined) set("header_names", JSON.stringify(changes.headerNames));
  if (changes.headersSealed !== undefined) set("headers_sealed", changes.headersSealed);
  if (changes.enabled !== undefined) set("enabled", changes.enabled ? 1 : 0);
  if (changes.exposeOnMcp !== undefined) set("expose_on_mcp", changes.exposeOnMcp ? 1 : 0);
  if (changes.url !== undefined || changes.headersSealed !== undefined) {
    sets.push("tools_json = NULL", "tools_fetched_at = NULL", "tool_count = NULL", "transport = NULL");
  }
  if (changes.url !== undefined) {
    // Tokens were issued for the old server: a new URL means signing in again.
    sets.push("oauth_sealed = NULL", "needs_sign_in = CASE auth_type WHEN 'oauth' THEN 1 ELSE 0 END");
  }
  sets.push(`updated_at = ${NOW}`);
  try {
    const row = await db
      .prepare(`UPDATE mcp_servers SET ${sets.join(", ")} WHERE id = ? AND tenant_id = ? RETURNING *`)
      .bind(...values, id, tenantId)
      .first<Row>();
    if (!row) throw notFound("No MCP server with this id in your workshop.");
    return fromRow(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`This workshop already has an MCP server named '${changes.name}'.`);
    throw error;
  }
}

/** Removes a server and its cached tools; an unknown id or another workshop's is 404. */
export async function deleteServer({ db, tenantId, id }: { db: D1Database; tenantId: string; id: string }): Promise<void> {
  const result = await db.prepare("DELETE FROM mcp_servers WHERE id = ? AND tenant_id = ?").bind(id, tenantId).run();
  if (!result.meta.changes) throw notFound("No MCP server with this id in your workshop.");
}

/** Records a successful contact: the tool list when one was fetched, the transport that worked, the latency. */
export async function recordSuccess({
  db,
  tenantId,
  id,
  latencyMs,
  transport,
  tools,
}: {
  db: D1Database;
  tenantId: string;
  id: string;
  latencyMs: number;
  transport: "streamable-http" | "sse";
  tools?: CachedTool[];
}): Promise<void> {
  const toolSets = tools ? `, tools_json = ?, tools_fetched_at = ${NOW}, tool_count = ?` : "";
  await db
    .prepare(
      `UPDATE mcp_servers SET last_success_at = ${NOW}, latency_ms = ?, transport = ?${toolSets}
       WHERE id = ? AND tenant_id = ?`,
    )
    .bind(latencyMs, transport, ...(tools ? [JSON.stringify(tools), tools.length] : []), id, tenantId)
    .run();
}

/** Records a failed contact with a message safe to show the workshop (never a header value). */
export async function recordFailure({
  db,
  tenantId,
  id,
  message,
}: {
  db: D1Database;
  tenantId: string;
  id: string;
  message: string;
}): Promise<void> {
  await db
    .prepare(`UPDATE mcp_servers SET last_error = ?, last_error_at = ${NOW} WHERE id = ? AND tenant_id = ?`)
    .bind(message.slice(0, 500), id, tenantId)
    .run();
}

/**
 * Records an error one tool answered with (an `isError` result or a JSON-RPC error to its call):
 * counted apart, since the server was reached and its other tools may work.
 */
export async function recordToolError({
  db,
  tenantId,
  id,
  message,
}: {
  db: D1Database;
  tenantId: string;
  id: string;
  message: string;
}): Promise<void> {
  await db
    .prepare(
      `UPDATE mcp_servers SET tool_error_count = tool_error_count + 1, last_tool_error = ?, last_tool_error_at = ${NOW}
       WHERE id = ? AND tenant_id = ?`,
    )
    .bind(message.slice(0, 500), id, tenantId)
    .run();
}

/** Marks the cached tool list stale (the server said its tools changed), so the next use fetches it. */
export async function markToolsStale({ db, tenantId, id }: { db: D1Database; tenantId: string; id: string }): Promise<void> {
  await db.prepare("UPDATE mcp_servers SET tools_fetched_at = NULL WHERE id = ? AND tenant_id = ?").bind(id, tenantId).run();
}
