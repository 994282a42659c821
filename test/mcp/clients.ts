import { exports } from "cloudflare:workers";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { BASE, call, mcpClient } from "../helpers.ts";

/** The SDK v2 client, pinned to protocol revision 2026-07-28, connected to `/mcp` of the Worker under test. */
export async function modernMcpClient(key: string): Promise<ModernClient> {
  const client = new ModernClient(
    { name: "weft-test-2026", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  const transport = new ModernTransport(new URL(`${BASE}/mcp`), {
    fetch: (url, init) => exports.default.fetch(new Request(url, init)),
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

/** What an elicitation request carries, as the tests read it. */
export type ElicitParams = {
  message: string;
  mode?: string;
  url?: string;
  requestedSchema?: { properties: Record<string, { oneOf?: { const: string; title: string }[] }> };
};
type Answer = { action: "accept" | "decline" | "cancel"; content?: Record<string, string> };

/** The SDK v2 client declaring form elicitation, answering each elicitation with `answer`. */
export async function askingClient(
  key: string,
  answer: (params: ElicitParams) => Answer,
  capability: Record<string, Record<string, never>> = { form: {} },
) {
  const client = new ModernClient(
    { name: "weft-test-elicit", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: capability } },
  );
  const asked: ElicitParams[] = [];
  client.setRequestHandler("elicitation/create", async (request) => {
    const params = request.params as ElicitParams;
    asked.push(params);
    return answer(params);
  });
  const transport = new ModernTransport(new URL(`${BASE}/mcp`), {
    fetch: (url, init) => exports.default.fetch(new Request(url, init)),
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return { client, asked };
}

/** The two clients Weft serves from one URL, by the protocol revision they speak. */
export const ERAS = [
  { era: "2026-07-28 (SDK v2 client)", connect: modernMcpClient },
  { era: "2025-11-25 (SDK v1 client)", connect: (key: string) => mcpClient(key) },
] as const;

/** What every client of either SDK answers a call with: the parts the tests read. */
export interface CallResult {
  isError?: boolean;
  content: unknown[];
  structuredContent?: Record<string, unknown>;
}

/** One raw 2026-07-28 request: the per-request `_meta` envelope and headers a v2 client sends. */
export function modernRequest(
  key: string,
  method: string,
  params: Record<string, unknown> = {},
  capabilities: Record<string, unknown> = {},
): Promise<Response> {
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "weft-test-raw", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": capabilities,
  };
  return call("/mcp", {
    method: "POST",
    key,
    headers: {
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": method,
      ...(typeof params.name === "string" ? { "Mcp-Name": params.name } : {}),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta } }),
  });
}
