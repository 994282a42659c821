import { Validator } from "@cfworker/json-schema";
import type { z } from "zod";
import { AppError, type ErrorCode, GENERIC_MESSAGE } from "../errors.ts";
import { log } from "../log.ts";
import type { JsonSchema, ToolOutput } from "../shapes.ts";
import { describeIssues } from "../validation.ts";
import type { Tool, ToolContext, WeftTool } from "./tool.ts";

/** What a face renders: the tool's output, or a failure it can show as it is. */
export type ToolOutcome =
  | ({ ok: true } & ToolOutput)
  | { ok: false; code: ErrorCode; message: string; retryable: boolean; details?: Record<string, unknown> };

/**
 * Runs a tool for any face. The input is checked against the tool's schema first (unknown fields
 * are refused by name, so an agent learns of its typo), the output against its output schema
 * after (a mismatch is our bug: logged, answered generically). Domain errors keep their safe
 * message; anything else is logged with the request id and reported generically.
 */
export async function runTool(tool: Tool, ctx: ToolContext, input: unknown): Promise<ToolOutcome> {
  try {
    const output = tool.kind === "weft" ? await runWeftTool(tool, ctx, input) : await tool.run(ctx, checkJsonInput(tool, input));
    return { ok: true, ...output };
  } catch (error) {
    return failureOf(tool, ctx, error);
  }
}

async function runWeftTool(tool: WeftTool, ctx: ToolContext, input: unknown): Promise<ToolOutput> {
  const parsed = strictSchemaOf(tool).safeParse(input ?? {});
  if (!parsed.success)
    throw new AppError("invalid_input", `Invalid arguments for ${tool.name}: ${describeIssues(parsed.error, "(arguments)")}`);
  const output = await tool.run(ctx, parsed.data);
  if (output.kind === "result" && tool.outputSchema) {
    const checked = tool.outputSchema.safeParse(output.structured);
    if (!checked.success) {
      throw new Error(`${tool.name} returned output that fails its schema: ${describeIssues(checked.error, "(output)")}`);
    }
  }
  return output;
}

const strictSchemas = new WeakMap<WeftTool, z.ZodObject>();

/** The input schema with unknown keys refused, built once per tool and isolate. */
function strictSchemaOf(tool: WeftTool): z.ZodObject {
  let schema = strictSchemas.get(tool);
  if (!schema) {
    schema = tool.inputSchema.strict();
    strictSchemas.set(tool, schema);
  }
  return schema;
}

const validators = new WeakMap<JsonSchema, Validator>();

function checkJsonInput(tool: Extract<Tool, { kind: "json-schema" }>, input: unknown): Record<string, unknown> {
  const value = input ?? {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new AppError("invalid_input", `Invalid arguments for ${tool.name}: expected an object.`);
  }
  const unknown = unknownFields(tool.inputSchema, value as Record<string, unknown>);
  if (unknown.length) {
    throw new AppError(
      "invalid_input",
      `Invalid arguments for ${tool.name}: unknown field(s) ${unknown.slice(0, 10).join(", ")}.`,
    );
  }
  let validator = validators.get(tool.inputSchema);
  if (!validator) {
    validator = new Validator(tool.inputSchema, "2020-12", false);
    validators.set(tool.inputSchema, validator);
  }
  const result = validator.validate(value);
  if (!result.valid) {
    // The innermost errors name the fields; the outer ones only say that a subschema failed.
    const problems = result.errors
      .filter((e) => !["properties", "allOf", "anyOf", "$ref"].includes(e.keyword))
      .slice(0, 10)
      .map((e) => `${e.instanceLocation.replace(/^#\/?/, "") || "(arguments)"}: ${e.error}`);
    throw new AppError(
      "invalid_input",
      `Invalid arguments for ${tool.name}: ${problems.join("; ") || "does not match the schema"}`,
    );
  }
  return value as Record<string, unknown>;
}

/**
 * Top-level fields the schema does not declare, when it declares some and says nothing about
 * others: most servers' schemas leave `additionalProperties` out, and an agent's typo should still
 * be named rather than silently dropped by the server.
 */
function unknownFields(schema: JsonSchema, value: Record<string, unknown>): string[] {
  const properties = schema.properties;
  if (schema.additionalProperties !== undefined || schema.patternProperties !== undefined) return [];
  if (!properties || typeof properties !== "object") return [];
  return Object.keys(value).filter((key) => !Object.hasOwn(properties, key));
}

/** A failure as a face shows it: a domain error keeps its code and safe message, anything else is logged. */
export function failureOf(tool: Tool, ctx: ToolContext, error: unknown): ToolOutcome {
  if (error instanceof AppError) {
    if (error.status >= 500)
      log("warn", "tool_failed", { tool: tool.name, request_id: ctx.requestId, code: error.code, error: error.cause ?? error });
    return {
      ok: false,
      code: error.code,
      message: error.message,
      retryable: error.retryable,
      ...(error.details ? { details: error.details } : {}),
    };
  }
  log("error", "tool_failed", { tool: tool.name, request_id: ctx.requestId, error });
  return { ok: false, code: "internal", message: `${GENERIC_MESSAGE} (request id ${ctx.requestId})`, retryable: true };
}
