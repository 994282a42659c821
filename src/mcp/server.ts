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
import type { ConfirmBy } from "../shapes.ts";
import { confirmNote, endsInConfirmation } from "../tools/confirm-by.ts";
import { inputJsonSchema, outputJsonSchema } from "../tools/json-schemas.ts";
import type { Toolset } from "../tools/registry.ts";
import { failureOf, runTool, type ToolOutcome } from "../tools/run-tool.ts";
import type { Tool, ToolContext } from "../tools/tool.ts";
import { answerRound, askingFor, askToConfirm, type Round } from "./elicitation.ts";
import { ICONS, toolIcons } from "./icons.ts";
import { renderPendingAction } from "./pending-action.ts";
import { servePrompts } from "./prompts.ts";
import { searchResultLinks, serveDocuments } from "./resources.ts";

const MAX_NAME_IN_ERROR = 64;
/** Where `tools/list` names the external servers left out, and a failed call its HTTP status and retryability. */
export const LEFT_OUT_META = "weft/left_out";
export const ERROR_META = "weft/error";

const INSTRUCTIONS =
  "Weft gives access to a workshop's knowledge bases, guided consultations and business records. " +
  "Tools only ever see the caller's own workshop. Tools that prepare a write return a preview: show it to " +
  "the user; nothing is written until they say yes.";

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
export function buildMcpServer(toolset: Toolset, ctx: ToolContext): McpServer {
  const { tools, unavailable, notes } = toolset;
  const mcp = new McpServer(
    { name: "weft", title: "Weft", version: pkg.version, icons: ICONS.weft },
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
    tools: tools.map((tool) => describe(tool, ctx.confirming.by)),
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
    const result = render(round.outcome, ctx);
    // A search result links each document it quotes, so a client can open the whole of it.
    if (tool.name === "knowledge_search" && !result.isError) result.content.push(...searchResultLinks(result.structuredContent));
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
 * A tool as `tools/list` shows it, its JSON Schemas built once per tool and isolate; a tool whose
 * use ends in a person's yes says what the caller's credential allows (one descriptor per setting).
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
      icons: toolIcons(tool.name),
      inputSchema: inputSchema as McpTool["inputSchema"],
      ...(outputSchema ? { outputSchema: outputSchema as McpTool["outputSchema"] } : {}),
      annotations: { title: tool.title, ...tool.annotations },
    };
    bySetting.set(confirmBy, descriptor);
  }
  return descriptor;
}

function render(outcome: ToolOutcome, ctx: ToolContext): CallToolResult {
  if (!outcome.ok) {
    return {
      isError: true,
      content: [{ type: "text", text: `${outcome.code}: ${outcome.message}` }],
      _meta: { [ERROR_META]: { code: outcome.code, status: statusOf(outcome.code), retryable: outcome.retryable } },
    };
  }
  if (outcome.kind === "pending_action") return renderPendingAction(outcome.action, ctx.confirming.by);
  return {
    structuredContent: outcome.structured,
    // The JSON is always a text block too, for clients that ignore structuredContent.
    content: [
      ...(outcome.text ? [{ type: "text" as const, text: outcome.text }] : []),
      { type: "text", text: JSON.stringify(outcome.structured) },
    ],
  };
}
