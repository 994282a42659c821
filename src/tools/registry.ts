import { mayUseTool } from "../auth/permissions.ts";
import { cancelActionTool } from "./cancel-action.ts";
import { confirmActionTool } from "./confirm-action.ts";
import { initiateSessionTool } from "./initiate-session.ts";
import { knowledgeSearchTool } from "./knowledge-search.ts";
import { listKnowledgeBasesTool } from "./list-knowledge-bases.ts";
import { navigateSessionTool } from "./navigate-session.ts";
import { prepareOrderTool } from "./prepare-order.ts";
import { preparePieceRecordTool } from "./prepare-piece-record.ts";
import { queryEmployeesTool } from "./query-employees.ts";
import { queryOrdersTool } from "./query-orders.ts";
import { queryPayrollTool } from "./query-payroll.ts";
import { queryPieceRecordsTool } from "./query-piece-records.ts";
import { queryProcessesTool } from "./query-processes.ts";
import type { JsonSchemaTool, Tool, ToolContext, WeftTool } from "./tool.ts";
import { externalToolName } from "./tool-names.ts";

/** Weft's own tools, in the order clients list them. */
export const WEFT_TOOLS: readonly WeftTool[] = [
  knowledgeSearchTool,
  listKnowledgeBasesTool,
  initiateSessionTool,
  navigateSessionTool,
  queryOrdersTool,
  queryPieceRecordsTool,
  queryPayrollTool,
  queryProcessesTool,
  queryEmployeesTool,
  preparePieceRecordTool,
  prepareOrderTool,
  confirmActionTool,
  cancelActionTool,
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
