import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { ActionService } from "../actions/service.ts";
import type { BusinessService } from "../business/service.ts";
import type { Config } from "../config.ts";
import type { ConsultService } from "../consult/service.ts";
import type { ExternalToolProvider } from "../federation/external-tools.ts";
import type { FederationService } from "../federation/service.ts";
import type { SearchService } from "../search/service.ts";
import type { ConfirmBy, JsonSchema, ToolOutput } from "../shapes.ts";
import type { Role, UserContext } from "../user-context.ts";
import type { ToolWords } from "./words.ts";

/**
 * The domain services a tool runs on, wired for the caller's workshop after authentication (`servicesFor`); a
 * tool never sees `Env`.
 */
export interface ToolServices {
  search: SearchService;
  consult: ConsultService;
  business: BusinessService;
  actions: ActionService;
  /** The registry of the workshop's external MCP servers. */
  federation: FederationService;
  /** The workshop's tools from external MCP servers, as the face calling serves them. */
  external: ExternalToolProvider;
}

/**
 * A part a tool emits while it runs (progress, or data a face can render before the result).
 * The chat face streams them as `data-*` parts; the MCP face ignores them.
 */
export interface ToolDataPart {
  type: `data-${string}`;
  id?: string;
  data: unknown;
}

/**
 * What the caller's credential allows in saying yes to a prepared write (its owner's `confirm_by`;
 * `weft` in a browser session, where the person's card and page are the way), and how the audit
 * names the credential.
 */
export interface Confirming {
  by: ConfirmBy;
  /** An API key's visible prefix or an OAuth app's name; `null` in a browser session. */
  credential: string | null;
  /** Which credential exactly (a key's or a connection's id): a confirmation round is bound to it. */
  credentialId: string;
}

/** What a tool receives besides its input. Built once per request by `toolContext`. */
export interface ToolContext {
  user: UserContext;
  requestId: string;
  signal: AbortSignal;
  config: Config;
  services: ToolServices;
  /** What the caller's credential allows in saying yes to a prepared write (`confirm_action` needs `agent`). */
  confirming: Confirming;
  /** Emits a data part where the face supports it; a no-op elsewhere. */
  emit(part: ToolDataPart): void;
}

interface ToolCommon {
  /** `[a-z0-9_]`, at most 64 characters: what models and MCP clients call it by. */
  name: string;
  title: string;
  /** Written for a model: when to use the tool and how to present what it returns. */
  description: string;
  annotations: ToolAnnotations;
  /** The least role that may see and call the tool; everyone when absent. */
  minRole?: Role;
  /**
   * The kind of pending action the tool prepares (or the kinds, for one that prepares several),
   * for a tool that prepares writes: an executor of each must be registered
   * (test/actions/kinds.test.ts holds every such tool to it).
   */
  prepares?: string | readonly string[];
  /**
   * Set on the tools that decide a prepared write (confirm, cancel): in the chat a person decides
   * on the card, so its model is never offered them.
   */
  decidesAction?: true;
}

/** One of Weft's own tools: zod schemas, typed input and output, and its words in both languages. */
export interface WeftTool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> extends ToolCommon {
  kind: "weft";
  /** The English title (`words.title.en`), as MCP clients show it. */
  title: string;
  words: ToolWords;
  inputSchema: I;
  /** What `structuredContent` holds: every tool of Weft's declares it, prepare tools included. */
  outputSchema: O;
  run(ctx: ToolContext, input: z.output<I>): Promise<ToolOutput<z.output<O>>>;
}

/** A tool that arrives at run time (an external MCP server's), described by JSON Schema. */
export interface JsonSchemaTool extends ToolCommon {
  kind: "json-schema";
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  run(ctx: ToolContext, input: Record<string, unknown>): Promise<ToolOutput>;
}

export type Tool = WeftTool | JsonSchemaTool;

/** Lets TypeScript infer a Weft tool's input and output types from its schemas; its title is its English one. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(
  tool: Omit<WeftTool<I, O>, "kind" | "title">,
): WeftTool<I, O> {
  return { kind: "weft", title: tool.words.title.en, ...tool };
}
