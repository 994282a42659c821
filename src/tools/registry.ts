import { holdAction } from "../actions/actions.ts";
import type { ExternalTool } from "../federation/external-tools.ts";
import { mayUseTool } from "../permissions.ts";
import type { ToolOutput } from "../shapes.ts";
import { cancelActionTool } from "./cancel-action.ts";
import { confirmActionTool } from "./confirm-action.ts";
import { preparedInOf } from "./confirm-by.ts";
import { initiateSessionTool } from "./initiate-session.ts";
import { knowledgeSearchTool } from "./knowledge-search.ts";
import { listKnowledgeBasesTool } from "./list-knowledge-bases.ts";
import { navigateSessionTool } from "./navigate-session.ts";
import { prepareBusinessChangeTool } from "./prepare-business-change.ts";
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
  prepareBusinessChangeTool,
  confirmActionTool,
  cancelActionTool,
];

/** What one caller is offered: the tools listed, and the external servers left out for now. */
export interface Toolset {
  /** Listed and callable: Weft's own that the role allows, then the workshop's external tools. */
  tools: Tool[];
  /**
   * Not listed, but known by name: a left-out server's tools as last listed. A call to one answers
   * `upstream_failed` (502) rather than "unknown tool", so an agent knows to try again later.
   */
  unavailable: Tool[];
  /** One line per left-out server, for the face to tell its caller (MCP instructions, chat prompt). */
  notes: string[];
}

/**
 * The tools this caller may see and call: Weft's own that their role allows, then their
 * workshop's external tools under the naming rule (`mcp_{server}_{tool}`). Names are given over
 * every server's tools, available or not, so a tool's name does not change with its server's health.
 * Both faces ask here; `external: false` skips the external servers, for a request that needs none.
 */
export async function toolsFor(ctx: ToolContext, { external = true }: { external?: boolean } = {}): Promise<Toolset> {
  const own: Tool[] = WEFT_TOOLS.filter((tool) => mayUseTool(ctx.user, tool.minRole, tool.annotations));
  const taken = new Set(own.map((tool) => tool.name));
  const toolset: Toolset = { tools: own, unavailable: [], notes: [] };
  // An external server's annotations are its own claim, so a read-only caller gets none of its tools.
  if (!external || ctx.user.readOnly) return toolset;
  for (const server of await ctx.services.external.toolsFor(ctx.user, ctx.signal)) {
    const named = server.tools.map((tool): JsonSchemaTool => {
      const name = externalToolName(server.server, tool.name, taken);
      taken.add(name);
      return {
        kind: "json-schema",
        name,
        title: tool.title ?? `${tool.name} (${server.server})`,
        description: tool.description,
        inputSchema: tool.inputSchema,
        annotations: tool.annotations,
        run: (runCtx, input) => runExternal(tool, runCtx, input),
      };
    });
    if (server.status === "available") toolset.tools.push(...named);
    else {
      toolset.unavailable.push(...named);
      toolset.notes.push(
        `The external MCP server '${server.server}' is unavailable right now (${server.reason}); its tools are left out.`,
      );
    }
  }
  return toolset;
}

/**
 * Calls an external tool for a caller: its answer as a result, or, when the tool may change
 * things, the prepared call held as the caller's pending action.
 */
async function runExternal(tool: ExternalTool, ctx: ToolContext, input: Record<string, unknown>): Promise<ToolOutput> {
  const outcome = await tool.call(ctx.user, input);
  if (outcome.kind === "result") return { kind: "result", ...outcome.output };
  const view = await holdAction({
    actions: ctx.services.actions,
    user: ctx.user,
    prepared: outcome.prepared,
    preparedIn: preparedInOf(ctx.confirming),
  });
  return { kind: "pending_action", action: view };
}
