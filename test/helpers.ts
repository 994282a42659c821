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
