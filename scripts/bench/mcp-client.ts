// A bare JSON-RPC caller for /mcp: the benchmark measures the server, not a client library.

let nextId = 1;

/** Sends one JSON-RPC request to /mcp and returns its result; throws on any error. */
export async function rpc(baseUrl: string, key: string, method: string, params?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}/mcp`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${key}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, ...(params === undefined ? {} : { params }) }),
  });
  const body = (await res.json()) as { result?: Record<string, unknown>; error?: { message: string } };
  if (!res.ok || body.error || !body.result) throw new Error(`${method} failed: ${res.status} ${body.error?.message ?? ""}`);
  if (body.result.isError) throw new Error(`${method} tool error: ${JSON.stringify(body.result.content)}`);
  return body.result;
}

/** Calls a tool and returns its structured content. */
export async function callTool<T>(baseUrl: string, key: string, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await rpc(baseUrl, key, "tools/call", { name, arguments: args });
  return result.structuredContent as T;
}
