import {
  type CacheHint,
  type CallToolResult,
  McpServer,
  type Tool as McpTool,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from "@modelcontextprotocol/server";
import pkg from "../../package.json" with { type: "json" };
import { statusOf } from "../errors.ts";
import { agentPreviewText } from "../preview-text.ts";
import type { ConfirmBy, PendingAction } from "../shapes.ts";
import { pendingActionResult } from "../tools/action-results.ts";
import { confirmNote, endsInConfirmation } from "../tools/confirm-by.ts";
import { inputJsonSchema, outputJsonSchema } from "../tools/json-schemas.ts";
import type { Toolset } from "../tools/registry.ts";
import { failureOf, runTool, type ToolOutcome } from "../tools/run-tool.ts";
import type { Tool, ToolContext } from "../tools/tool.ts";
import { answerRound, askingFor, askToConfirm, type Round } from "./elicitation.ts";
import { iconsFor } from "./icons.ts";
import { servePrompts } from "./prompts.ts";
import { searchResultLinks, serveDocuments } from "./resources.ts";

const MAX_NAME_IN_ERROR = 64;
/** Where `tools/list` names the external servers left out, and a failed call its HTTP status and retryability. */
export const LEFT_OUT_META = "weft/left_out";
export const ERROR_META = "weft/error";

const INSTRUCTIONS = [
  "Weft gives access to a garment workshop's knowledge bases, guided consultations and business records, only ever the caller's own workshop.",
  "Every tool's result starts with `summary`: the sentence to tell the person, naming the period, filters and counts it rests on. " +
    "Business results also carry `period` ({name, of, from, to, in_progress}: name `all` when no period was given, in_progress while it includes today), " +
    "`filters` (what was applied, as the records name it), `assumptions` (what was read into the question: say them too), " +
    "`totals` (over every matching row, not just the page), `next_cursor`, and the workshop's `today` and `time_zone`. " +
    "Money is {cents, yuan} everywhere. Dates are the workshop's.",
  "Tools that prepare a write return a preview (old → new where something changes), nothing written: `confirm_by` says who may say yes with this credential, " +
    "`next_step` what you do, `tell_user` what to tell the person, and `expires_at` is the workshop's local time. " +
    "Nothing is written before the person's yes.",
].join("\n");

/**
 * Cache hints for 2026-07-28 clients (2025-era answers carry none). Every list depends on the
 * caller's workshop and role, so none is `public`; tools (a boss edits an external server),
 * prompts (trees are uploaded) and resources (documents are uploaded) can change at any moment,
 * so their lists are not to be reused; the resource template and the server's description change
 * only with a deployment.
 */
const CACHE_HINTS: Record<string, CacheHint> = {
  "tools/list": { ttlMs: 0, cacheScope: "private" },
  "prompts/list": { ttlMs: 0, cacheScope: "private" },
  "resources/list": { ttlMs: 0, cacheScope: "private" },
  "resources/read": { ttlMs: 0, cacheScope: "private" },
  "resources/templates/list": { ttlMs: 3_600_000, cacheScope: "private" },
};

/** What a request's client reads besides the tools: whether its protocol revision has `structuredContent`. */
export interface McpClientTraits {
  /**
   * True from revision 2025-06-18 on: its results carry the data once, in `structuredContent`, and
   * the text is only the summary. Earlier clients get the JSON as text too, which is all they read.
   */
  readsStructuredContent: boolean;
}

/**
 * A fresh MCP server (SDK v2) for one request, exposing exactly the tools the caller may use, the
 * workshop's documents as resources and its consultations and two tasks as prompts. A
 * left-out external server is told in the instructions and in `tools/list`'s `_meta`, and a call
 * to one of its tools answers `upstream_failed` (retryable) rather than "unknown tool". Stateless:
 * anything that must outlive the request lives in Durable Objects, addressed by ids in arguments.
 * Tools are served by handlers of their own on the low-level server rather than `registerTool`,
 * because external tools arrive as JSON Schema and because input checking belongs to `runTool`,
 * the same for every face.
 */
export function buildMcpServer(toolset: Toolset, ctx: ToolContext, client: McpClientTraits): McpServer {
  const { tools, unavailable, notes } = toolset;
  const mcp = new McpServer(
    { name: "weft", title: "Weft", version: pkg.version, icons: iconsFor(ctx.services.actions.origin, "weft") },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: [`${INSTRUCTIONS} ${confirmNote(ctx.confirming.by)}`, ...notes].join("\n"),
      cacheHints: CACHE_HINTS,
    },
  );
  const server = mcp.server;
  const listed = new Map(tools.map((tool) => [tool.name, tool]));
  const known = new Map([...unavailable.map((tool) => [tool.name, tool] as const), ...listed]);
  server.setRequestHandler("tools/list", async () => ({
    tools: tools.map((tool) => ({
      ...describe(tool, ctx.confirming.by),
      icons: iconsFor(ctx.services.actions.origin, toolIcon(tool)),
    })),
    ...(notes.length ? { _meta: { [LEFT_OUT_META]: notes } } : {}),
  }));
  server.setRequestHandler("tools/call", async (request, mcpCtx) => {
    const tool = known.get(request.params.name);
    if (!tool) {
      // The MCP spec lists an unknown tool as a protocol error, not a tool result.
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool '${request.params.name.slice(0, MAX_NAME_IN_ERROR)}'. Available tools: ${[...listed.keys()].join(", ")}.`,
      );
    }
    const args = request.params.arguments ?? {};
    const round = await callTool({ tool, args, ctx, mcp: mcpCtx });
    if ("ask" in round) return round.ask;
    const result = await render(round.outcome, tool, ctx, client);
    // A result that quotes documents links each, so a client can open the whole of it.
    if (!result.isError) result.content.push(...searchResultLinks(result.structuredContent));
    return server.projectCallToolResult(result, outputJsonSchema(tool) ?? undefined);
  });
  serveDocuments(mcp, ctx);
  servePrompts(mcp, ctx, toolset);
  return mcp;
}

/**
 * One call of a tool. A retried call carrying a state is a person's answer to a confirmation
 * round; a write prepared for a client that can ask its person is put to them in-band; every
 * other outcome is the tool's own.
 */
async function callTool({
  tool,
  args,
  ctx,
  mcp,
}: {
  tool: Tool;
  args: Record<string, unknown>;
  ctx: ToolContext;
  mcp: ServerContext;
}): Promise<Round> {
  const wire = mcp.mcpReq.requestState();
  if (wire !== undefined) {
    try {
      return await answerRound({
        wire: String(wire),
        tool,
        args,
        ctx,
        mcp,
        prepareAgain: (again) => runTool(tool, ctx, again),
      });
    } catch (error) {
      return { outcome: failureOf(tool, ctx, error) };
    }
  }
  const outcome = await runTool(tool, ctx, args);
  if (outcome.ok && outcome.kind === "pending_action") {
    const asking = await askingFor(mcp, ctx);
    if (asking) return { ask: await askToConfirm(asking, { action: outcome.action, tool, args, ctx }) };
  }
  return { outcome };
}

const descriptors = new WeakMap<Tool, Map<ConfirmBy, McpTool>>();

/**
 * A tool as `tools/list` shows it (its icon aside, which is an address on this deployment), its
 * JSON Schemas built once per tool and isolate; a tool whose use ends in a person's yes says what
 * the caller's credential allows (one descriptor per setting).
 */
function describe(tool: Tool, confirmBy: ConfirmBy): McpTool {
  let bySetting = descriptors.get(tool);
  if (!bySetting) {
    bySetting = new Map();
    descriptors.set(tool, bySetting);
  }
  let descriptor = bySetting.get(confirmBy);
  if (!descriptor) {
    const inputSchema = inputJsonSchema(tool);
    const outputSchema = outputJsonSchema(tool);
    descriptor = {
      name: tool.name,
      title: tool.title,
      description: endsInConfirmation(tool) ? `${tool.description} ${confirmNote(confirmBy)}` : tool.description,
      inputSchema: inputSchema as McpTool["inputSchema"],
      ...(outputSchema ? { outputSchema: outputSchema as McpTool["outputSchema"] } : {}),
      annotations: tool.annotations,
    };
    bySetting.set(confirmBy, descriptor);
  }
  return descriptor;
}

/** A tool's icon family: Weft's own tools name theirs; an external server's tools share one. */
function toolIcon(tool: Tool) {
  return tool.kind === "weft" ? tool.words.icon : "external";
}

/**
 * A tool's outcome as an MCP result. The data is in `structuredContent` once; the text is the
 * summary to tell the person. A client of a revision before `structuredContent` reads only text,
 * so it gets the JSON as text as well (the spec's compatibility rule, kept for those alone).
 */
async function render(outcome: ToolOutcome, tool: Tool, ctx: ToolContext, client: McpClientTraits): Promise<CallToolResult> {
  if (!outcome.ok) {
    return {
      isError: true,
      content: [{ type: "text", text: `${outcome.code}: ${outcome.message}` }],
      _meta: { [ERROR_META]: { code: outcome.code, status: statusOf(outcome.code), retryable: outcome.retryable } },
    };
  }
  const { structured, text } =
    outcome.kind === "pending_action"
      ? await pendingOutcome(outcome.action, tool, ctx)
      : { structured: outcome.structured, text: outcome.text };
  return {
    structuredContent: structured,
    content: [
      ...(text ? [{ type: "text" as const, text }] : []),
      ...(client.readsStructuredContent && text ? [] : [{ type: "text" as const, text: JSON.stringify(structured) }]),
    ],
  };
}

async function pendingOutcome(action: PendingAction, tool: Tool, ctx: ToolContext) {
  const structured = await pendingActionResult(ctx, action, { tool: tool.name });
  // The preview as the agent is given it (the words an agent's confirm records as shown), the
  // next step and what to tell the person: all a client that reads only the text needs to act.
  return { structured, text: [agentPreviewText(action), structured.next_step, structured.tell_user].join("\n") };
}
