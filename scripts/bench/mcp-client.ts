// A bare JSON-RPC caller for /mcp: the benchmark measures the server, not a client library.

let nextId = 1;

const MODERN = "2026-07-28";

/**
 * The body and headers of one request: a 2025-era one as before, or with `modern` a 2026-07-28
 * one (the per-request `_meta` envelope and the standard headers a v2 client sends).
 */
export function rpcRequest(method: string, params?: Record<string, unknown>, { modern = false } = {}) {
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
  if (!modern) {
    return {
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, ...(params === undefined ? {} : { params }) }),
    };
  }
  headers["MCP-Protocol-Version"] = MODERN;
  headers["Mcp-Method"] = method;
  if (typeof params?.name === "string") headers["Mcp-Name"] = params.name;
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": { name: "weft-bench", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  return { headers, body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta } }) };
}

/** Sends one JSON-RPC request to /mcp and returns its result; throws on any error. */
export async function rpc(
  baseUrl: string,
  key: string,
  method: string,
  params?: Record<string, unknown>,
  options: { modern?: boolean } = {},
): Promise<Record<string, unknown>> {
  const { headers, body } = rpcRequest(method, params, options);
  const res = await fetch(`${baseUrl}/mcp`, { method: "POST", headers: { ...headers, Authorization: `Bearer ${key}` }, body });
  const answer = (await res.json()) as { result?: Record<string, unknown>; error?: { message: string } };
  if (!res.ok || answer.error || !answer.result)
    throw new Error(`${method} failed: ${res.status} ${answer.error?.message ?? ""}`);
  if (answer.result.isError) throw new Error(`${method} tool error: ${JSON.stringify(answer.result.content)}`);
  return answer.result;
}

/** Calls a tool and returns its structured content. */
export async function callTool<T>(
  baseUrl: string,
  key: string,
  name: string,
  args: Record<string, unknown>,
  options: { modern?: boolean } = {},
): Promise<T> {
  const result = await rpc(baseUrl, key, "tools/call", { name, arguments: args }, options);
  return result.structuredContent as T;
}
