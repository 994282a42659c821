import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth } from "../auth/middleware.ts";
import { checkOrigin, originAllowed } from "../auth/origin.ts";
import { servicesForFace } from "../services.ts";
import { toolContext } from "../tools/context.ts";
import { type Toolset, toolsFor } from "../tools/registry.ts";
import { EXTERNAL_TOOL_PREFIX } from "../tools/tool-names.ts";
import { checkEnvelope, type JsonRpcError, jsonRpcError, requestIdOf } from "./envelope.ts";
import { buildMcpServer } from "./server.ts";

/** Largest `/mcp` request body; tool arguments are small, and a cap bounds the work of parsing. */
export const MAX_MCP_BODY_BYTES = 1024 * 1024;

/** `/mcp`: Streamable HTTP, stateless, JSON responses, behind the origin and API-key checks. */
export const mcpRoutes = new Hono<AppEnv>();

// Browser clients (MCP Inspector's direct mode, web agents) need CORS; only allowed origins get it.
mcpRoutes.use(
  cors({
    origin: (origin, c) => (originAllowed(origin, c.req.url, c.var.config.allowedOrigins) ? origin : null),
    allowMethods: ["POST", "GET", "DELETE", "OPTIONS"],
    allowHeaders: ["Authorization", "Content-Type", "Accept", "Mcp-Protocol-Version", "Mcp-Session-Id", "Last-Event-ID"],
    exposeHeaders: ["Mcp-Session-Id", "Mcp-Protocol-Version", "WWW-Authenticate", "X-Request-Id"],
    maxAge: 86400,
  }),
);
mcpRoutes.use(checkOrigin());
mcpRoutes.use(bearerAuth());

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
      return c.json(jsonRpcError(null, ErrorCode.ParseError, "Parse error: the body is not valid JSON."), 400);
    }
    const problem: JsonRpcError | null = checkEnvelope(body);
    if (problem) return c.json(problem, 400);
    const ctx = toolContext({
      user: c.var.user,
      config: c.var.config,
      requestId: c.var.requestId,
      signal: c.req.raw.signal,
      // /mcp re-exposes only the external servers a boss marked for it.
      services: servicesForFace(c.var.services, "mcp"),
    });
    const needed = toolsNeeded(body);
    const toolset = needed === "none" ? NO_TOOLS : await toolsFor(ctx, { external: needed === "all" });
    const server = buildMcpServer(toolset, ctx);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    const response = await transport.handleRequest(c.req.raw, { parsedBody: body });
    return Array.isArray(body) && body.filter((m) => requestIdOf(m) !== null).length === 1 ? asArrayOfOne(response) : response;
  },
);

/**
 * A batch is answered with an array (JSON-RPC 2.0, §6), even when it holds one request: the
 * transport answers a single response as a bare object, which a client that sent an array does
 * not expect. A transport's refusal of the whole request (406, 415, ...) answers no request of the
 * batch, and stays the single error it is.
 */
async function asArrayOfOne(response: Response): Promise<Response> {
  if (response.status !== 200 || !(response.headers.get("Content-Type") ?? "").startsWith("application/json")) return response;
  const answer: unknown = await response.json();
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  return Response.json(Array.isArray(answer) ? answer : [answer], { status: response.status, headers });
}

const NO_TOOLS: Toolset = { tools: [], unavailable: [], notes: [] };

/**
 * Which of the caller's tools a request needs. External tools cost a D1 read and perhaps a contact
 * with their servers, so only `initialize` (whose instructions name left-out servers), `tools/list`
 * and calls of external tools (all named `mcp_…`, a prefix no tool of Weft's has) ask for them; a
 * call of Weft's own tool needs only those, and a ping nothing.
 */
function toolsNeeded(body: unknown): "none" | "own" | "all" {
  let needed: "none" | "own" | "all" = "none";
  for (const message of Array.isArray(body) ? body : [body]) {
    const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
    if (method === "initialize" || method === "tools/list") return "all";
    if (method === "tools/call") {
      if (typeof params?.name === "string" && params.name.startsWith(EXTERNAL_TOOL_PREFIX)) return "all";
      needed = "own";
    }
  }
  return needed;
}

// A stateless server has no stream to offer and no session to end (spec: 405 is the answer).
mcpRoutes.on(["GET", "DELETE"], "/", (c) =>
  c.json(jsonRpcError(null, ErrorCode.ConnectionClosed, "Method not allowed: this MCP server is stateless; use POST."), 405, {
    Allow: "POST",
  }),
);
