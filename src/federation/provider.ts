import type { Prepared } from "../actions/types.ts";
import { AppError } from "../errors.ts";
import { log } from "../log.ts";
import { printable } from "../printable.ts";
import type { UserContext } from "../user-context.ts";
import { callExternalTool } from "./call-tool.ts";
import type { ExternalCallWrite } from "./confirmed-call.ts";
import { isFresh, refreshTools } from "./contact.ts";
import type { ExternalServerTools, ExternalTool, ExternalToolProvider } from "./external-tools.ts";
import { type CachedTool, listServers, type ServerRecord } from "./server-store.ts";
import type { FederationService } from "./service.ts";
import { upstreamError } from "./upstream-error.ts";

/** After a failed contact, a server is not tried again while serving a face for this long. */
const RETRY_AFTER_MS = 30_000;

/**
 * Whether this caller may use a tool: a workshop's staff only tools the server marks read-only;
 * anything that may write (or says nothing) needs a boss, until writes are confirmed by the user.
 */
export function mayUse(user: UserContext, tool: CachedTool): boolean {
  return user.role !== "staff" || tool.annotations.readOnlyHint === true;
}

/**
 * The workshop's external tools, from the registry: enabled servers (only those with
 * `expose_on_mcp` when `face` is `mcp`), each server's cached tool list, refreshed when older than
 * the TTL. A server that is down, slow, recently failing or signed out is left out with a reason
 * (and logged); it never fails the whole list.
 */
export function registryToolProvider(service: FederationService, face: "mcp" | "chat"): ExternalToolProvider {
  return {
    async toolsFor(user) {
      if (service.relayed) return [];
      const servers = (await listServers({ ...service, enabledOnly: true })).filter(
        (server) => face !== "mcp" || server.exposeOnMcp,
      );
      return Promise.all(
        servers.map(async (server): Promise<ExternalServerTools> => {
          const listed = await toolsOf(service, server);
          const usable = listed.tools.filter((tool) => mayUse(user, tool));
          if (listed.ok) {
            return {
              server: server.name,
              status: "available",
              tools: usable.map((tool) => asExternalTool(service, server, tool)),
            };
          }
          const unavailable = leftOutError(server, listed.reason);
          return {
            server: server.name,
            status: "left_out",
            reason: listed.reason,
            tools: usable.map((tool) => ({
              ...describeTool(tool),
              call: async () => {
                throw unavailable;
              },
            })),
          };
        }),
      );
    },
  };
}

type Listed = { ok: true; tools: CachedTool[] } | { ok: false; reason: string; tools: CachedTool[] };

const NEEDS_SIGN_IN = "a boss must sign in to it again";
const REFUSED = "it refused the credentials Weft holds for it";
const FAILED = "it could not be reached or did not list its tools";

/** Why a contact failed, in Weft's words: the server's own text is kept for its health, not for callers. */
function reasonFor(server: ServerRecord, error: unknown): string {
  const status = error instanceof AppError ? error.details?.status_code : undefined;
  if (status !== 401 && status !== 403) return FAILED;
  return server.authType === "oauth" ? NEEDS_SIGN_IN : REFUSED;
}

async function toolsOf(service: FederationService, server: ServerRecord): Promise<Listed> {
  const cached = server.tools ?? [];
  if (server.needsSignIn) return { ok: false, reason: NEEDS_SIGN_IN, tools: cached };
  if (isFresh(server, service.toolListTtlSeconds)) return { ok: true, tools: cached };
  const failedRecently =
    server.lastErrorAt !== null &&
    Date.now() - Date.parse(server.lastErrorAt) < RETRY_AFTER_MS &&
    (server.lastSuccessAt === null || server.lastErrorAt > server.lastSuccessAt);
  if (failedRecently) return { ok: false, reason: FAILED, tools: cached };
  try {
    return { ok: true, tools: (await refreshTools(service, server, service.listLimits)).tools };
  } catch (error) {
    log("warn", "mcp_tools_left_out", { server_id: server.id, tenant_id: server.tenantId, error });
    return { ok: false, reason: reasonFor(server, error), tools: cached };
  }
}

/** What a call to a left-out server's tool answers: 502, retryable unless a person must act first. */
function leftOutError(server: ServerRecord, reason: string): AppError {
  const retryable = reason === FAILED;
  return upstreamError(
    `The MCP server '${server.name}' is unavailable right now (${reason}), so its tools are left out.${retryable ? " Try again in a minute." : ""}`,
    { retryable },
  );
}

const MAX_PREVIEW_VALUE = 200;

/**
 * An argument as the person confirming it reads it: control characters (a line break that would
 * start a line of its own in the preview) written as code points, and a long value cut with a
 * mark that says so, since the whole of it is what will be sent.
 */
function previewValue(value: unknown): string {
  const text = printable(typeof value === "string" ? value : (JSON.stringify(value) ?? "null"));
  return text.length > MAX_PREVIEW_VALUE ? `${text.slice(0, MAX_PREVIEW_VALUE)}…（已截断，共 ${text.length} 字）` : text;
}

/** A call that may change things, prepared with a preview for its user to confirm. */
function preparedCall(server: ServerRecord, tool: CachedTool, input: Record<string, unknown>): Prepared<ExternalCallWrite> {
  const preview = [
    { label: "外部服务", value: server.name },
    { label: "工具", value: tool.title ?? tool.name },
    ...Object.entries(input).map(([label, value]) => ({ label: printable(label), value: previewValue(value) })),
  ];
  return {
    kind: "external_call",
    write: { serverId: server.id, toolName: tool.name, arguments: input },
    summary: `调用外部工具：${server.name} 的 ${tool.title ?? tool.name}${tool.annotations.destructiveHint === false ? "" : "（可能修改或删除数据）"}`,
    preview,
    ambiguities: [],
    // Who may call a tool that may change things (`mayUse`): checked again when the call is confirmed.
    needs: "boss",
  };
}

function describeTool(tool: CachedTool): Omit<ExternalTool, "call"> {
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: tool.annotations,
  };
}

function asExternalTool(service: FederationService, server: ServerRecord, tool: CachedTool): ExternalTool {
  return {
    ...describeTool(tool),
    // A tool the server does not declare read-only may change things: the user confirms it first,
    // through the same pending action and confirm card as Weft's own writes (the tool layer holds it).
    call: async (user, input) =>
      tool.annotations.readOnlyHint === true
        ? { kind: "result", output: await callExternalTool(service, server, tool.name, input, user.userId) }
        : { kind: "prepared", prepared: preparedCall(server, tool, input) },
  };
}
