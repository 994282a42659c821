import { z } from "zod";
import type { JsonSchema } from "../shapes.ts";
import type { Tool } from "./tool.ts";

const inputs = new WeakMap<Tool, JsonSchema>();
const outputs = new WeakMap<Tool, JsonSchema | null>();

type Override = NonNullable<Parameters<typeof z.toJSONSchema>[1]>["override"];

/**
 * What a schema says that a reader needs: an integer's bounds only when they bound something (zod
 * writes ±2^53 − 1 on every `int()`, 72 times in a list of Weft's tools), and no `$schema` (2020-12
 * is MCP's default dialect), since every client reads every tool's schemas in every conversation.
 */
const lean: Override = ({ jsonSchema }) => {
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
};

/**
 * An input as `tools/list` gives it: `lean`, and without a text's length bounds (a name of at most
 * 50 characters, 37 times in Weft's list) or a number's upper bound: the tool refuses a value out
 * of its bounds with `invalid_input` naming the field and its limit.
 */
const leanInput: Override = (context) => {
  lean(context);
  delete context.jsonSchema.minLength;
  delete context.jsonSchema.maxLength;
  delete context.jsonSchema.maximum;
};

function withoutDialect(schema: Record<string, unknown>): JsonSchema {
  const { $schema: _, [FOLD_OPTIONAL]: __, ...rest } = schema;
  return rest;
}

/**
 * Metadata of an output schema that many tools share (a prepared write's): `tools/list` types its
 * required fields and names the optional ones, with their shapes, in its description, since the
 * same shape repeated in every prepare tool would take a tenth of the list. `docs/mcp.md` lists
 * them all; the full schema keeps them typed.
 */
export const FOLD_OPTIONAL = "x-weft-fold-optional";

/**
 * A tool's input as JSON Schema, as MCP clients and models read it (fields with defaults are
 * optional), built once per tool and isolate.
 */
export function inputJsonSchema(tool: Tool): JsonSchema {
  let schema = inputs.get(tool);
  if (!schema) {
    schema =
      tool.kind === "weft"
        ? withoutDialect(z.toJSONSchema(tool.inputSchema, { io: "input", override: leanInput }) as JsonSchema)
        : tool.inputSchema;
    inputs.set(tool, schema);
  }
  return schema;
}

/**
 * A tool's output as JSON Schema, or null when it declares none; built once per tool and isolate.
 * Weft's own are compact (`compactOutput`): every client reads them in every conversation.
 */
export function outputJsonSchema(tool: Tool): JsonSchema | null {
  let schema = outputs.get(tool);
  if (schema === undefined) {
    schema = tool.kind === "weft" ? compactOutput(toJsonSchema(tool)) : (tool.outputSchema ?? null);
    outputs.set(tool, schema);
  }
  return schema;
}

/** A Weft tool's whole output schema, every nested field typed (the tests validate results against it). */
export function fullOutputJsonSchema(tool: Tool & { kind: "weft" }): JsonSchema {
  return withoutDialect(toJsonSchema(tool));
}

function toJsonSchema(tool: Tool & { kind: "weft" }): JsonSchema {
  return z.toJSONSchema(tool.outputSchema, { io: "output", override: lean }) as JsonSchema;
}

type Node = Record<string, unknown>;

// An amount of money is `{ cents, yuan }` everywhere (MoneySchema's `$defs` entry): said once, in
// the server's instructions, and written `(money)` where a shape names one.
const MONEY_REF = "#/$defs/money";

function nodeOf(value: unknown): Node {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Node) : {};
}

/** The schema a nullable (`anyOf` with `null`) stands for, and whether it was nullable. */
function unwrap(node: Node): { node: Node; nullable: boolean } {
  const branches = Array.isArray(node.anyOf) ? node.anyOf.map(nodeOf) : null;
  if (!branches) return { node, nullable: false };
  const other = branches.find((b) => b.type !== "null") ?? {};
  return { node: { ...other, ...(node.description ? { description: node.description } : {}) }, nullable: true };
}

/** A nested shape in a few characters: `{id, name, pieces, amount(money), lines?[{…}]}`. */
function shapeOf(node: Node): string {
  if (node.$ref === MONEY_REF) return "(money)";
  const { node: inner } = unwrap(node);
  if (inner.type === "object" && inner.properties) {
    const required = new Set(Array.isArray(inner.required) ? inner.required : []);
    const fields = Object.entries(nodeOf(inner.properties)).map(
      ([key, value]) => `${key}${required.has(key) ? "" : "?"}${shapeOf(nodeOf(value))}`,
    );
    return `{${fields.join(", ")}}`;
  }
  if (inner.type === "array") {
    const items = shapeOf(nodeOf(inner.items));
    return items ? `[${items}]` : "[]";
  }
  return "";
}

/**
 * A top-level field as the compact schema gives it: its type, enum and description, and for an
 * object or a list of objects the shape of what is inside, written into the description.
 */
function compactField(field: Node): Node {
  if (field.$ref === MONEY_REF) return { type: "object", description: "(money)" };
  const { node, nullable } = unwrap(field);
  const type = nullable ? [node.type, "null"].flat() : node.type;
  const shape = node.type === "object" || node.type === "array" ? shapeOf(node) : "";
  const described = [node.description, shape && shape !== "[]" ? shape : ""].filter(Boolean).join(" ");
  return {
    type,
    ...(node.enum ? { enum: node.enum } : {}),
    ...(node.type === "array" && !shape.startsWith("[{") ? { items: { type: nodeOf(node.items).type } } : {}),
    ...(described ? { description: described } : {}),
  };
}

/**
 * An output schema, compact: its top-level fields typed as the full schema has them, anything
 * nested written as its shape in the field's description (`?` after a field that may be absent).
 * A model reads every field's name; `docs/mcp.md` lists them all with what they mean, and the
 * tests validate every result against the full schema, which a client may also hold it to.
 */
export function compactOutput(schema: JsonSchema): JsonSchema {
  const fields = Object.entries(nodeOf(schema.properties));
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const folded = (key: string) => INSTRUCTED.has(key) || (schema[FOLD_OPTIONAL] === true && !required.has(key));
  const typed = fields.filter(([key]) => !folded(key)).map(([key, value]) => [key, compactField(nodeOf(value))] as const);
  const also = fields
    .filter(([key]) => folded(key))
    .map(([key, value]) => (INSTRUCTED.has(key) ? key : `${key}${shapeOf(nodeOf(value))}`));
  return {
    type: "object",
    properties: Object.fromEntries(typed),
    ...(also.length > 0 ? { description: `Also: ${also.join(", ")}.` } : {}),
  };
}

/**
 * The fields the server's instructions say once for every business result (their shapes and what
 * they mean), named and not typed again in each tool's compact schema.
 */
const INSTRUCTED = new Set(["period", "filters", "assumptions", "next_cursor", "today", "time_zone"]);
