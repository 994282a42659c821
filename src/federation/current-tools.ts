import { notFound } from "../errors.ts";
import { isFresh, refreshTools } from "./contact.ts";
import type { CachedTool, ServerRecord } from "./server-store.ts";
import type { FederationService } from "./service.ts";

/** The server's tools: the cache when younger than the TTL, otherwise fetched now (a failure is 502). */
export async function currentTools(service: FederationService, server: ServerRecord): Promise<CachedTool[]> {
  if (isFresh(server, service.toolListTtlSeconds)) return server.tools ?? [];
  return (await refreshTools(service, server)).tools;
}

/** One tool of the server by its own name; an unknown one is 404. */
export async function findTool(service: FederationService, server: ServerRecord, name: string): Promise<CachedTool> {
  const tool = (await currentTools(service, server)).find((t) => t.name === name);
  if (!tool) throw notFound(`The MCP server '${server.name}' has no tool named '${name.slice(0, 64)}'.`);
  return tool;
}
