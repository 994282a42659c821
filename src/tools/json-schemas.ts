import { z } from "zod";
import type { JsonSchema } from "../shapes.ts";
import type { Tool } from "./tool.ts";

const inputs = new WeakMap<Tool, JsonSchema>();
const outputs = new WeakMap<Tool, JsonSchema | null>();

/**
 * A tool's input as JSON Schema, as MCP clients and models read it (fields with defaults are
 * optional), built once per tool and isolate.
 */
export function inputJsonSchema(tool: Tool): JsonSchema {
  let schema = inputs.get(tool);
  if (!schema) {
    schema = tool.kind === "weft" ? (z.toJSONSchema(tool.inputSchema, { io: "input" }) as JsonSchema) : tool.inputSchema;
    inputs.set(tool, schema);
  }
  return schema;
}

/** A tool's output as JSON Schema, or null when it declares none; built once per tool and isolate. */
export function outputJsonSchema(tool: Tool): JsonSchema | null {
  let schema = outputs.get(tool);
  if (schema === undefined) {
    const declared =
      tool.kind === "weft" ? tool.outputSchema && z.toJSONSchema(tool.outputSchema, { io: "output" }) : tool.outputSchema;
    schema = (declared as JsonSchema | undefined) ?? null;
    outputs.set(tool, schema);
  }
  return schema;
}
