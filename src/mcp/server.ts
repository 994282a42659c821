import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import pkg from "../../package.json" with { type: "json" };
import { runTool } from "../tools/run-tool.ts";
import type { Tool, ToolContext } from "../tools/tool.ts";

/**
 * A fresh MCP server for one request, exposing exactly the tools the caller may use. Stateless:
 * anything that must outlive the request lives in Durable Objects, addressed by ids in arguments.
 */
export function buildMcpServer(tools: Tool[], ctx: ToolContext): McpServer {
  const server = new McpServer(
    { name: "weft", title: "Weft", version: pkg.version },
    {
      instructions:
        "Weft gives access to a workshop's knowledge bases, guided consultations and business records. " +
        "Tools only ever see the caller's own workshop.",
    },
  );
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
        annotations: { title: tool.title, ...tool.annotations },
      },
      async function callTool(input: unknown): Promise<CallToolResult> {
        const outcome = await runTool(tool, ctx, input);
        if (!outcome.ok) return { isError: true, content: [{ type: "text", text: `${outcome.code}: ${outcome.message}` }] };
        return {
          structuredContent: outcome.structured,
          // The JSON is always a text block too, for clients that ignore structuredContent.
          content: [
            ...(outcome.text ? [{ type: "text" as const, text: outcome.text }] : []),
            { type: "text", text: JSON.stringify(outcome.structured) },
          ],
        };
      },
    );
  }
  return server;
}
