import { PROTOCOL_VERSION_META_KEY } from "@modelcontextprotocol/server";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import type { AppEnv } from "../app-env.ts";
import { confirmingOf } from "../auth/credential.ts";
import { bearerAuth } from "../auth/middleware.ts";
import { checkHostAndOrigin, originListed } from "../auth/origin.ts";
import { toolContext } from "../tools/context.ts";
import { type Toolset, toolsFor } from "../tools/registry.ts";
import { EXTERNAL_TOOL_PREFIX } from "../tools/tool-names.ts";
import { checkEnvelope, JSONRPC_ERRORS, type JsonRpcError, jsonRpcError } from "./envelope.ts";
import { serveMcp } from "./handler.ts";
import { buildMcpServer } from "./server.ts";

/** Largest `/mcp` request body; tool arguments are small, and a cap bounds the work of parsing. */
export const MAX_MCP_BODY_BYTES = 1024 * 1024;

/** `/mcp`: Streamable HTTP, stateless, JSON responses, behind the host, origin and API-key checks. */
export const mcpRoutes = new Hono<AppEnv>();

// Host and Origin first: a request for a host that is not the deployment's gets nothing else.
mcpRoutes.use(checkHostAndOrigin());
// Browser clients (MCP Inspector's direct mode, web agents) need CORS; only allowed origins get it.
// Only a browser sends `Origin` (a preflight always does); other clients skip the middleware.
const corsForMcp = cors({
  origin: (origin, c) => (originListed(origin, c.var.config.allowedHosts, c.var.config.allowedOrigins) ? origin : null),
  allowMethods: ["POST", "GET", "DELETE", "OPTIONS"],
  allowHeaders: [
    "Authorization",
    "Content-Type",
    "Accept",
    "Mcp-Protocol-Version",
    "Mcp-Session-Id",
    "Mcp-Method",
    "Mcp-Name",
    "Last-Event-ID",
  ],
  exposeHeaders: ["Mcp-Session-Id", "Mcp-Protocol-Version", "WWW-Authenticate", "X-Request-Id"],
  maxAge: 86400,
});
mcpRoutes.use((c, next) => (c.req.header("Origin") === undefined ? next() : corsForMcp(c, next)));
// /mcp re-exposes only the external servers a boss marked for it.
mcpRoutes.use(bearerAuth({ face: "mcp" }));

mcpRoutes.post(
  "/",
  bodyLimit({
    maxSize: MAX_MCP_BODY_BYTES,
    onError: (c) => c.json(jsonRpcError(null, -32000, `Request body too large: the limit is ${MAX_MCP_BODY_BYTES} bytes.`), 413),
  }),
  async function handleMcp(c) {
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      return c.json(jsonRpcError(null, JSONRPC_ERRORS.parseError, "Parse error: the body is not valid JSON."), 400);
    }
    const problem: JsonRpcError | null = checkEnvelope(body);
    if (problem) return c.json(problem, 400);
    const ctx = toolContext({
      user: c.var.user,
      config: c.var.config,
      confirming: confirmingOf(c.var.credential),
      requestId: c.var.requestId,
      signal: c.req.raw.signal,
      services: c.var.services,
    });
    const needed = toolsNeeded(body);
    const client = { readsStructuredContent: readsStructuredContent(body, c.req.header("MCP-Protocol-Version")) };
    return serveMcp(c.req.raw, body, async () => {
      const toolset = needed === "none" ? NO_TOOLS : await toolsFor(ctx, { external: needed === "all" });
      return buildMcpServer(toolset, ctx, client);
    });
  },
);

const NO_TOOLS: Toolset = { tools: [], unavailable: [], notes: [] };

/** The first protocol revision whose tool results carry `structuredContent`. */
const STRUCTURED_SINCE = "2025-06-18";

/**
 * Whether the request's client speaks a revision with `structuredContent`: a 2026-07-28 request
 * says its revision in `_meta`, a 2025-era one in the `MCP-Protocol-Version` header (a client
 * that sends none is 2025-03-26, the spec says, from before structured results).
 */
function readsStructuredContent(body: unknown, header: string | undefined): boolean {
  const meta = (body as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta;
  const claimed = meta && typeof meta === "object" ? meta[PROTOCOL_VERSION_META_KEY] : undefined;
  const revision = typeof claimed === "string" ? claimed : header;
  return typeof revision === "string" && /^\d{4}-\d{2}-\d{2}$/.test(revision) && revision >= STRUCTURED_SINCE;
}

/**
 * Which of the caller's tools a request needs. External tools cost a D1 read and perhaps a contact
 * with their servers, so only `initialize` and `server/discover` (whose instructions name left-out
 * servers), `tools/list` and calls of external tools (all named `mcp_…`, a prefix no tool of
 * Weft's has) ask for them; a call of Weft's own tool or a prompt needs only those, and anything
 * else (`ping`, resources) nothing.
 */
function toolsNeeded(body: unknown): "none" | "own" | "all" {
  const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
  if (method === "initialize" || method === "server/discover" || method === "tools/list") return "all";
  // Prompts are offered by the tools they use, which are Weft's own.
  if (method === "prompts/list" || method === "prompts/get") return "own";
  if (method !== "tools/call") return "none";
  return typeof params?.name === "string" && params.name.startsWith(EXTERNAL_TOOL_PREFIX) ? "all" : "own";
}

// A stateless server has no stream to offer and no session to end (spec: 405 is the answer).
mcpRoutes.on(["GET", "DELETE"], "/", (c) =>
  c.json(jsonRpcError(null, -32000, "Method not allowed: this MCP server is stateless; use POST."), 405, {
    Allow: "POST",
  }),
);
