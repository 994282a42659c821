import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { JsonSchema, ToolContext, ToolOutput } from "../tools/tool.ts";
import type { UserContext } from "../user-context.ts";

/** A tool that an external MCP server offers a workshop, under the server's own name for it. */
export interface ExternalTool {
  /** The registered server's name (`[a-z0-9_-]`, unique per workshop). */
  server: string;
  /** The tool's name on that server, as the server spells it. */
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema;
  annotations: ToolAnnotations;
  call(ctx: ToolContext, input: Record<string, unknown>): Promise<ToolOutput>;
}

/** Where the registry finds a workshop's external tools. */
export interface ExternalToolProvider {
  toolsFor(user: UserContext, signal: AbortSignal): Promise<ExternalTool[]>;
}

/** A workshop with no external servers registered. */
export const NO_EXTERNAL_TOOLS: ExternalToolProvider = { toolsFor: async () => [] };
