import { mayUseTool } from "../auth/permissions.ts";
import { initiateSessionTool } from "./initiate-session.ts";
import { knowledgeSearchTool } from "./knowledge-search.ts";
import { listKnowledgeBasesTool } from "./list-knowledge-bases.ts";
import { navigateSessionTool } from "./navigate-session.ts";
import type { JsonSchemaTool, Tool, ToolContext, WeftTool } from "./tool.ts";
import { externalToolName } from "./tool-names.ts";

/** Weft's own tools, in the order clients list them. */
export const WEFT_TOOLS: readonly WeftTool[] = [
  knowledgeSearchTool,
  listKnowledgeBasesTool,
  initiateSessionTool,
  navigateSessionTool,
];

/**
 * The tools this caller may see and call: Weft's own that their role allows, then their
 * workshop's external tools under the naming rule (`mcp_{server}_{tool}`). Both faces ask here.
 */
export async function toolsFor(ctx: ToolContext): Promise<Tool[]> {
  const own: Tool[] = WEFT_TOOLS.filter((tool) => mayUseTool(ctx.user, tool.minRole));
  const taken = new Set(own.map((tool) => tool.name));
  const external = await ctx.services.external.toolsFor(ctx.user, ctx.signal);
  const served = external.map((tool): JsonSchemaTool => {
    const name = externalToolName(tool.server, tool.name, taken);
    taken.add(name);
    return {
      kind: "json-schema",
      name,
      title: tool.title ?? `${tool.name} (${tool.server})`,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: tool.annotations,
      run: (runCtx, input) => tool.call(runCtx, input),
    };
  });
  return [...own, ...served];
}
