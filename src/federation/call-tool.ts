import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { contact } from "./contact.ts";
import { recordToolError, type ServerRecord } from "./server-store.ts";
import type { FederationService } from "./service.ts";
import { upstreamError } from "./upstream-error.ts";

/** What a tool call answered: structured content, and its text blocks as text. */
export interface CallOutput {
  structured: Record<string, unknown>;
  text?: string;
}

const MAX_ERROR_TEXT = 1_000;

/**
 * Calls one tool on a registered server with already-checked arguments and turns its answer into
 * a tool output: structured content when the server gave some, its content blocks otherwise, and
 * the text blocks as text. A result the server marks `isError` is a 502 carrying its text, counted
 * as the tool's error (the server's health is left alone).
 * `caller` is the user the call is made for: it may reuse only a session opened for that user.
 */
export async function callExternalTool(
  service: FederationService,
  server: ServerRecord,
  toolName: string,
  args: Record<string, unknown>,
  caller: string,
): Promise<CallOutput> {
  const { value } = await contact(service, server, { limits: service.limits, caller, tool: toolName }, (client, options) =>
    client.callTool({ name: toolName, arguments: args }, undefined, options),
  );
  const result = value as CallToolResult;
  const text = (result.content ?? [])
    .filter((block): block is Extract<typeof block, { type: "text" }> => block.type === "text")
    .map((block) => block.text)
    .join("\n");
  if (result.isError) {
    const message = `${server.name}/${toolName} failed: ${text.slice(0, MAX_ERROR_TEXT) || "no reason given"}`;
    await recordToolError({ db: service.db, tenantId: server.tenantId, id: server.id, message });
    throw upstreamError(message, { retryable: false });
  }
  const structured = result.structuredContent ?? { content: result.content ?? [] };
  return { structured, ...(text ? { text } : {}) };
}
