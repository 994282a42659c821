import { exports } from "cloudflare:workers";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export const BASE = "http://weft.test";

/** A request to the Worker under test, as a client on the network would send it. */
export function call(path: string, init: RequestInit & { key?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.key) headers.set("Authorization", `Bearer ${init.key}`);
  if (typeof init.body === "string" && !headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  return exports.default.fetch(new Request(`${BASE}${path}`, { ...init, headers }));
}

/** `call`, its answer read as JSON (loosely: the assertions are the check), with its status and text. */
export async function callJson(path: string, init: Parameters<typeof call>[1] = {}) {
  const res = await call(path, init);
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: tests read JSON answers loosely; the assertions are the check
  return { res, status: res.status, text, body: JSON.parse(text) as Record<string, any> };
}

/** The MCP SDK's own client, connected to `/mcp` of the Worker under test. */
export async function mcpClient(key?: string): Promise<Client> {
  const client = new Client({ name: "weft-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), {
    fetch: (url, init) => exports.default.fetch(new Request(url, init)),
    requestInit: key ? { headers: { Authorization: `Bearer ${key}` } } : {},
  });
  await client.connect(transport);
  return client;
}
