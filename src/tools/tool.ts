import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { Config } from "../config.ts";
import type { Services } from "../services.ts";
import type { Role, UserContext } from "../user-context.ts";

/** A JSON Schema object, as external MCP servers describe their tools' input and output. */
export type JsonSchema = Record<string, unknown>;

/**
 * A part a tool emits while it runs (progress, or data a face can render before the result).
 * The chat face streams them as `data-*` parts; the MCP face ignores them.
 */
export interface ToolDataPart {
  type: `data-${string}`;
  id?: string;
  data: unknown;
}

/** What a tool receives besides its input. Built once per request by `toolContext`. */
export interface ToolContext {
  user: UserContext;
  requestId: string;
  signal: AbortSignal;
  config: Config;
  services: Services;
  /** Emits a data part where the face supports it; a no-op elsewhere. */
  emit(part: ToolDataPart): void;
}

/** One line of a pending action's preview: a label a person reads and its value. */
export interface PreviewField {
  label: string;
  value: string;
}

/** Something still to settle before a pending action can be confirmed, with the choices. */
export interface Ambiguity {
  field: string;
  message: string;
  candidates: { id: string; label: string }[];
}

/**
 * A write that has been prepared and checked but not done: the user confirms it (or not) by its
 * `actionId`, never the model on its own.
 */
export interface PendingAction {
  actionId: string;
  /** One sentence saying what will happen, in the user's language. */
  summary: string;
  preview: PreviewField[];
  ambiguities: Ambiguity[];
  expiresAt: string;
}

/**
 * A tool's answer. A `result` carries structured data (checked against `outputSchema` when the
 * tool has one) and, where JSON reads poorly, a text rendering for models. A `pending_action`
 * is a prepared write that each face asks the user to confirm in its own way.
 */
export type ToolOutput<O = Record<string, unknown>> =
  | { kind: "result"; structured: O; text?: string }
  | { kind: "pending_action"; action: PendingAction };

interface ToolCommon {
  /** `[a-z0-9_]`, at most 64 characters: what models and MCP clients call it by. */
  name: string;
  title: string;
  /** Written for a model: when to use the tool and how to present what it returns. */
  description: string;
  annotations: ToolAnnotations;
  /** The least role that may see and call the tool; everyone when absent. */
  minRole?: Role;
}

/** One of Weft's own tools: zod schemas, typed input and output. */
export interface WeftTool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> extends ToolCommon {
  kind: "weft";
  inputSchema: I;
  outputSchema?: O;
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

/** Lets TypeScript infer a Weft tool's input and output types from its schemas. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(tool: Omit<WeftTool<I, O>, "kind">): WeftTool<I, O> {
  return { kind: "weft", ...tool };
}

/**
 * A pending action as an agent or model reads it (snake_case, like every tool result): each face
 * adds its own words on what to do next.
 */
export function pendingActionPayload(action: PendingAction) {
  return {
    status: "pending_confirmation" as const,
    action_id: action.actionId,
    summary: action.summary,
    preview: action.preview,
    ambiguities: action.ambiguities,
    expires_at: action.expiresAt,
  };
}
