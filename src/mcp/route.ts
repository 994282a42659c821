import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { Hono } from "hono";
import { cors } from "hono/cors";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth } from "../auth/middleware.ts";
import { toolsFor } from "../tools/registry.ts";
import { buildMcpServer } from "./server.ts";

/** `/mcp`: Streamable HTTP, stateless, JSON responses, behind the API-key check. */
export const mcpRoutes = new Hono<AppEnv>();

// Browser clients (MCP Inspector's direct mode, web agents) need CORS. Keys travel in a header,
// never a cookie, so any origin may call; preflights are answered before the key check.
mcpRoutes.use(
  cors({
    origin: "*",
    allowMethods: ["POST", "GET", "DELETE", "OPTIONS"],
    allowHeaders: ["Authorization", "Content-Type", "Accept", "Mcp-Protocol-Version", "Mcp-Session-Id", "Last-Event-ID"],
    exposeHeaders: ["Mcp-Session-Id", "Mcp-Protocol-Version", "WWW-Authenticate", "X-Request-Id"],
    maxAge: 86400,
  }),
);
mcpRoutes.use(bearerAuth());

mcpRoutes.post("/", async function handleMcp(c) {
  const tools = toolsFor(c.var.user);
  const body = await readJson(c.req.raw);
  const unknown = body.ok ? unknownToolCall(body.value, new Set(tools.map((t) => t.name))) : null;
  if (unknown) {
    // The SDK reports a missing tool as a tool result; the MCP spec lists it as a protocol error.
    return c.json({
      jsonrpc: "2.0",
      id: unknown.id,
      error: {
        code: ErrorCode.InvalidParams,
        message: `Unknown tool '${unknown.name}'. Available tools: ${tools.map((t) => t.name).join(", ")}.`,
      },
    });
  }
  const server = buildMcpServer(tools, {
    user: c.var.user,
    env: c.env,
    config: c.var.config,
    requestId: c.var.requestId,
  });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  return transport.handleRequest(c.req.raw, body.ok ? { parsedBody: body.value } : undefined);
});

// A stateless server has no stream to offer and no session to end (spec: 405 is the answer).
mcpRoutes.on(["GET", "DELETE"], "/", (c) =>
  c.json(
    {
      jsonrpc: "2.0",
      id: null,
      error: { code: ErrorCode.ConnectionClosed, message: "Method not allowed: this MCP server is stateless; use POST." },
    },
    405,
    { Allow: "POST" },
  ),
);

async function readJson(request: Request): Promise<{ ok: true; value: unknown } | { ok: false }> {
  try {
    return { ok: true, value: await request.clone().json() };
  } catch {
    // Malformed JSON is left to the transport, which answers with a JSON-RPC parse error.
    return { ok: false };
  }
}

function unknownToolCall(message: unknown, known: Set<string>): { id: string | number; name: string } | null {
  if (!message || typeof message !== "object" || Array.isArray(message)) return null;
  const { method, id, params } = message as { method?: unknown; id?: unknown; params?: { name?: unknown } };
  if (method !== "tools/call" || (typeof id !== "string" && typeof id !== "number")) return null;
  const name = params?.name;
  return typeof name === "string" && !known.has(name) ? { id, name } : null;
}
