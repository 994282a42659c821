import {
  isLegacyRequest,
  type McpServer,
  PROTOCOL_VERSION_META_KEY,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { createMcpHandler } from "agents/mcp/server";
import { log } from "../log.ts";

/** Builds the MCP server for one request: the route knows the caller, the handler does not. */
export type ServerForRequest = () => Promise<McpServer>;

const servers = new WeakMap<Request, ServerForRequest>();

/**
 * The 2026-07-28 lane: `agents`' stateless handler, created once per isolate. Its factory finds
 * the server of the request it is serving by the request itself. Host, Origin and CORS are Weft's
 * own middleware's (checked against configured lists before any work), so the handler's are off;
 * its 2025 lane is not used (see `serveLegacy`).
 */
const modern = createMcpHandler(
  async ({ requestInfo }) => {
    const build = requestInfo && servers.get(requestInfo);
    if (!build) throw new Error("no MCP server was prepared for this request");
    return build();
  },
  {
    route: "/mcp",
    legacy: "reject",
    corsOptions: false,
    allowedOriginHostnames: "*",
    onerror: (error) => log("debug", "mcp_rejected", { error: error.message }),
  },
);

/**
 * Serves one `/mcp` POST whose body is already parsed and checked: a 2026-07-28 request through
 * `agents`' `createMcpHandler`, a 2025-era one (`initialize`, `tools/list` without the per-request
 * `_meta`, ...) through the SDK v2 transport with JSON responses. The handler's own 2025 lane
 * answers every request as a Server-Sent Events stream and has no option for JSON; Weft's
 * 2025-era clients have always had plain JSON, which also costs the Worker less.
 */
export async function serveMcp(request: Request, body: unknown, build: ServerForRequest): Promise<Response> {
  if (!claimsEnvelope(body) && (await isLegacyRequest(request, body))) return serveLegacy(request, body, build);
  servers.set(request, build);
  return modern.fetch(request, { parsedBody: body });
}

/**
 * Whether a request carries the 2026-07-28 envelope's protocol-version claim in `params._meta`:
 * such a request is never legacy (the SDK's `isLegacyRequest` says so too, and leaves everything
 * else about it to the modern handler), so the common case skips a second classification.
 */
function claimsEnvelope(body: unknown): boolean {
  const params = (body as { params?: unknown } | null)?.params;
  const meta = params && typeof params === "object" ? (params as { _meta?: unknown })._meta : undefined;
  return !!meta && typeof meta === "object" && Object.hasOwn(meta, PROTOCOL_VERSION_META_KEY);
}

async function serveLegacy(request: Request, body: unknown, build: ServerForRequest): Promise<Response> {
  const server = await build();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody: body });
  } finally {
    await server.close();
  }
}
