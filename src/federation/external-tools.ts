import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { Prepared } from "../actions/types.ts";
import type { JsonSchema } from "../shapes.ts";
import type { UserContext } from "../user-context.ts";
import type { CallOutput } from "./call-tool.ts";
import type { ExternalCallWrite } from "./confirmed-call.ts";

/**
 * What calling an external tool came to: the server's answer, or (for a tool that may change
 * things) the call prepared for its user to confirm, which the tool layer holds as a pending action.
 */
export type ExternalOutcome =
  | { kind: "result"; output: CallOutput }
  | { kind: "prepared"; prepared: Prepared<ExternalCallWrite> };

/** A tool that an external MCP server offers a workshop, under the server's own name for it. */
export interface ExternalTool {
  /** The tool's name on that server, as the server spells it. */
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema;
  annotations: ToolAnnotations;
  call(user: UserContext, input: Record<string, unknown>): Promise<ExternalOutcome>;
}

/**
 * One registered server's tools for this caller. A server that is down, slow or signed out is
 * `left_out`: its tools (as last listed, so their names stay stable) are not offered, a call to one
 * answers `upstream_failed`, and `reason` says why in words of Weft's own, never the server's.
 */
export type ExternalServerTools =
  | { server: string; status: "available"; tools: ExternalTool[] }
  | { server: string; status: "left_out"; reason: string; tools: ExternalTool[] };

/** Where the registry finds a workshop's external tools, server by server in a stable order. */
export interface ExternalToolProvider {
  toolsFor(user: UserContext, signal: AbortSignal): Promise<ExternalServerTools[]>;
}
