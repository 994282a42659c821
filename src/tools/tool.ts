import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { Config } from "../config.ts";
import type { Role, UserContext } from "../user-context.ts";

/** What a tool receives besides its input: who calls, and the platform it runs on. */
export interface ToolContext {
  user: UserContext;
  env: Env;
  config: Config;
  requestId: string;
}

/**
 * A tool's answer: structured data (checked against `outputSchema`) and, where the data reads
 * poorly as JSON, a rendering for models. Faces always carry the JSON too.
 */
export interface ToolOutput<O> {
  structured: O;
  text?: string;
}

/**
 * One capability, written once and served by both faces (MCP and chat). The description is
 * written for a model: when to use the tool and how to present what it returns.
 */
export interface Tool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  inputSchema: I;
  outputSchema: O;
  annotations: ToolAnnotations;
  /** The least role that may see and call the tool; everyone when absent. */
  minRole?: Role;
  run(ctx: ToolContext, input: z.output<I>): Promise<ToolOutput<z.output<O>>>;
}

/** Identity function that lets TypeScript infer a tool's input and output types from its schemas. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(tool: Tool<I, O>): Tool<I, O> {
  return tool;
}
