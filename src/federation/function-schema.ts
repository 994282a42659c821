import type { JsonSchema } from "../shapes.ts";

/** Something the conversion left out, and where (a JSON-pointer-like path into the input schema). */
export interface Pruned {
  path: string;
  reason: "cycle" | "depth" | "missing_ref" | "unsupported_ref" | "keyword" | "nesting" | "size";
  detail: string;
}

export type Conversion = { ok: true; parameters: JsonSchema; pruned: Pruned[] } | { ok: false; reason: string };

export interface ConvertOptions {
  /** How many `$ref`s deep definitions are inlined before a branch is cut (the seed's 3). */
  maxDepth?: number;
  /** The document `#/...` references point into when it is not the schema itself (an OpenAPI spec). */
  document?: unknown;
}

type Json = Record<string, unknown>;

// What function-calling APIs accept; everything else is dropped and reported.
const SCALAR_KEYWORDS = new Set([
  "type",
  "description",
  "title",
  "required",
  "enum",
  "default",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "nullable",
]);
// Meaningless once references are inlined: dropped without a report.
const SILENT_KEYWORDS = new Set(["$schema", "$id", "$comment", "$defs", "definitions", "$anchor"]);

/** Past this many nested subschemas a branch is cut, whatever the references: bounds the stack. */
const MAX_NESTING = 32;
/** Past this many output nodes the rest is cut: bounds what fan-out through references can build. */
const MAX_NODES = 5_000;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Turns an MCP tool's input schema into one an OpenAI-style function call accepts (seed 001, §5):
 * `$ref`s into `$defs`, `definitions` or `#/components/schemas/` are inlined through one resolver;
 * a reference already being expanded (a cycle) or deeper than `maxDepth` becomes just its `type`
 * and `description`; `const` becomes `enum`; `oneOf` becomes `anyOf`; other keywords are dropped.
 * Every cut is listed in `pruned`. Never throws; an input that is not an object schema is `ok: false`.
 *
 * @example convertToFunctionSchema({ properties: { q: { const: "x" } } }).parameters // { type: "object", properties: { q: { enum: ["x"] } } }
 */
export function convertToFunctionSchema(inputSchema: unknown, options: ConvertOptions = {}): Conversion {
  try {
    if (!isObject(inputSchema)) return { ok: false, reason: "the input schema is not a JSON object" };
    const state: WalkState = {
      document: options.document ?? inputSchema,
      maxDepth: options.maxDepth ?? 3,
      pruned: [],
      nodes: 0,
    };
    const parameters = walk(inputSchema, "#", [], 0, state);
    const type = parameters.type;
    if (type === undefined) parameters.type = "object";
    else if (type !== "object") return { ok: false, reason: `the input schema's type is ${JSON.stringify(type)}, not "object"` };
    if (!isObject(parameters.properties)) parameters.properties = Object.create(null);
    return { ok: true, parameters, pruned: state.pruned };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : "the schema could not be read" };
  }
}

interface WalkState {
  document: unknown;
  maxDepth: number;
  pruned: Pruned[];
  nodes: number;
}

/** One resolver for every local reference: a JSON pointer into the document (`#/$defs/A`, `#/components/schemas/A`). */
function resolveRef(document: unknown, ref: string): Json | undefined {
  if (ref === "#") return isObject(document) ? document : undefined;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(2).split("/")) {
    let part: string;
    try {
      part = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return undefined;
    }
    if (!isObject(node) || !Object.hasOwn(node, part)) return undefined;
    node = node[part];
  }
  return isObject(node) ? node : undefined;
}

/** What a cut branch keeps: its type (an object if it had properties) and description. */
function stub(node: Json | undefined, siblings: Json): Json {
  const out: Json = {};
  const type = node?.type ?? siblings.type ?? (node?.properties ? "object" : undefined);
  if (typeof type === "string" || (Array.isArray(type) && type.every((t) => typeof t === "string"))) {
    out.type = Array.isArray(type) ? [...type] : type;
  }
  const description = siblings.description ?? node?.description;
  if (typeof description === "string") out.description = description;
  return out;
}

function walk(node: unknown, path: string, refStack: readonly string[], depth: number, state: WalkState): Json {
  if (!isObject(node)) return {};
  if (depth > MAX_NESTING) {
    state.pruned.push({ path, reason: "nesting", detail: `nested more than ${MAX_NESTING} levels` });
    return stub(node, {});
  }
  if (++state.nodes > MAX_NODES) {
    if (state.nodes === MAX_NODES + 1) state.pruned.push({ path, reason: "size", detail: `more than ${MAX_NODES} subschemas` });
    return stub(node, {});
  }
  const ref = node.$ref;
  if (typeof ref === "string") return walkRef(node, ref, path, refStack, depth, state);
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    const at = `${path}/${key}`;
    if (key === "properties" && isObject(value)) {
      const properties: Json = Object.create(null);
      for (const [name, sub] of Object.entries(value)) properties[name] = walk(sub, `${at}/${name}`, refStack, depth + 1, state);
      out.properties = properties;
    } else if (key === "items" && isObject(value)) out.items = walk(value, at, refStack, depth + 1, state);
    else if (key === "additionalProperties" && (typeof value === "boolean" || isObject(value))) {
      out.additionalProperties = typeof value === "boolean" ? value : walk(value, at, refStack, depth + 1, state);
    } else if ((key === "anyOf" || key === "oneOf" || key === "allOf") && Array.isArray(value)) {
      const target = key === "allOf" ? "allOf" : "anyOf";
      const branches = value.map((sub, i) => walk(sub, `${at}/${i}`, refStack, depth + 1, state));
      out[target] = [...((out[target] as Json[] | undefined) ?? []), ...branches];
    } else if (key === "const") out.enum = [value];
    else if (key === "required" && Array.isArray(value)) out.required = value.filter((v) => typeof v === "string");
    else if (key === "enum" && Array.isArray(value)) {
      if (!("const" in node)) out.enum = [...value];
    } else if (SCALAR_KEYWORDS.has(key) && (typeof value !== "object" || value === null || key === "type" || key === "default")) {
      out[key] = Array.isArray(value) ? [...value] : value;
    } else if (!SILENT_KEYWORDS.has(key)) {
      state.pruned.push({ path: at, reason: "keyword", detail: `dropped unsupported keyword '${key}'` });
    }
  }
  if (out.type === undefined && out.properties) out.type = "object";
  return out;
}

function walkRef(node: Json, ref: string, path: string, refStack: readonly string[], depth: number, state: WalkState): Json {
  const siblings: Json = Object.create(null);
  for (const [key, value] of Object.entries(node)) if (key !== "$ref") siblings[key] = value;
  const target = resolveRef(state.document, ref);
  if (!target) {
    const reason = ref.startsWith("#") ? "missing_ref" : "unsupported_ref";
    state.pruned.push({
      path,
      reason,
      detail: `${ref} ${reason === "missing_ref" ? "is not defined" : "is not a local reference"}`,
    });
    return walk(siblings, path, refStack, depth, state);
  }
  if (refStack.includes(ref)) {
    state.pruned.push({ path, reason: "cycle", detail: `${ref} refers back to itself; its properties are cut` });
    return stub(target, siblings);
  }
  if (refStack.length >= state.maxDepth) {
    state.pruned.push({
      path,
      reason: "depth",
      detail: `${ref} is deeper than ${state.maxDepth} references; its properties are cut`,
    });
    return stub(target, siblings);
  }
  // The referring schema's own words (a description, say) win over the definition's.
  return walk({ ...target, ...siblings }, path, [...refStack, ref], depth, state);
}
