import type { JsonSchema } from "../shapes.ts";

export type StrictConversion = { ok: true; parameters: JsonSchema } | { ok: false; reason: string };

type Json = Record<string, unknown>;

// Keywords strict function calling rejects; they only narrow values, so leaving them out is safe.
const STRICT_UNSUPPORTED = new Set(["default", "minProperties", "maxProperties", "uniqueItems", "nullable"]);

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The strict variant of a converted function schema, for models with a strict mode: every object
 * closed (`additionalProperties: false`) with every property required, optional ones made
 * nullable. Not possible (`ok: false`, with the reason) when an object is free-form (no declared
 * properties, or open to more) or the schema needs `allOf`.
 *
 * @example toStrictSchema({ type: "object", properties: { a: { type: "string" } } }) // a: { type: ["string", "null"] }, required: ["a"]
 */
export function toStrictSchema(parameters: JsonSchema): StrictConversion {
  try {
    return { ok: true, parameters: strict(parameters, "#") };
  } catch (error) {
    return { ok: false, reason: error instanceof StrictRefusal ? error.message : "the schema could not be read" };
  }
}

class StrictRefusal extends Error {}

function strict(node: Json, path: string): Json {
  if (Array.isArray(node.allOf)) throw new StrictRefusal(`${path} uses allOf`);
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (STRICT_UNSUPPORTED.has(key) || key === "properties" || key === "required" || key === "additionalProperties") continue;
    if (key === "items" && isObject(value)) out.items = strict(value, `${path}/items`);
    else if (key === "anyOf" && Array.isArray(value)) out.anyOf = value.map((sub: Json, i) => strict(sub, `${path}/anyOf/${i}`));
    else out[key] = value;
  }
  const isObjectType = node.type === "object" || (Array.isArray(node.type) && node.type.includes("object"));
  if (!isObjectType) return out;
  if (!isObject(node.properties) || Object.keys(node.properties).length === 0) {
    throw new StrictRefusal(`${path} is an object without declared properties`);
  }
  if (node.additionalProperties !== undefined && node.additionalProperties !== false) {
    throw new StrictRefusal(`${path} accepts properties beyond those it declares`);
  }
  const required = new Set(Array.isArray(node.required) ? node.required : []);
  const properties: Json = Object.create(null);
  for (const [name, sub] of Object.entries(node.properties)) {
    const converted = strict(isObject(sub) ? sub : {}, `${path}/properties/${name}`);
    properties[name] = required.has(name) ? converted : nullable(converted);
  }
  out.properties = properties;
  out.required = Object.keys(properties);
  out.additionalProperties = false;
  return out;
}

/** The same schema, also accepting `null` (how strict mode spells "optional"). */
function nullable(schema: Json): Json {
  const { type } = schema;
  if (typeof type === "string" && !Array.isArray(schema.enum))
    return { ...schema, type: type === "null" ? type : [type, "null"] };
  if (Array.isArray(type) && !Array.isArray(schema.enum))
    return { ...schema, type: type.includes("null") ? type : [...type, "null"] };
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: "null" }] };
  return { anyOf: [schema, { type: "null" }] };
}
