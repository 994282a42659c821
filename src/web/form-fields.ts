// A tool's JSON Schema as the fields of a form, and what a person typed as the tool's arguments:
// strings, numbers, yes/no and choices get their own inputs; anything deeper is typed as JSON.
import type { JsonSchema } from "../shapes.ts";

export type FieldKind = "text" | "number" | "integer" | "boolean" | "choice" | "json";

export interface FormField {
  name: string;
  label: string;
  hint: string;
  kind: FieldKind;
  required: boolean;
  /** A choice field's values, shown by their JSON text. */
  choices: unknown[];
  /** What the field starts with: what the model filled, as the input holds it. */
  initial: string | boolean;
}

/** Why a field's text cannot be an argument. */
export type FieldProblem = "required" | "number" | "integer" | "json";

interface PropertySchema {
  type?: unknown;
  enum?: unknown;
  title?: unknown;
  description?: unknown;
}

function kindOf(schema: PropertySchema): FieldKind {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return "choice";
  const types = Array.isArray(schema.type) ? schema.type.filter((t) => t !== "null") : [schema.type];
  if (types.length !== 1) return "json";
  if (types[0] === "string") return "text";
  if (types[0] === "number") return "number";
  if (types[0] === "integer") return "integer";
  if (types[0] === "boolean") return "boolean";
  return "json";
}

function initialOf(kind: FieldKind, value: unknown, choices: unknown[]): string | boolean {
  if (value === undefined) return kind === "boolean" ? false : "";
  if (kind === "boolean") return value === true;
  if (kind === "choice") {
    const at = choices.findIndex((c) => JSON.stringify(c) === JSON.stringify(value));
    return at < 0 ? "" : String(at);
  }
  if (kind === "json") return JSON.stringify(value, null, 2);
  return typeof value === "string" || typeof value === "number" ? String(value) : JSON.stringify(value);
}

/** The fields of a form for a tool's input schema, required ones first, each holding what was filled. */
export function formFields(schema: JsonSchema, values: Record<string, unknown>): FormField[] {
  const properties = (schema.properties ?? {}) as Record<string, PropertySchema>;
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : []);
  const fields = Object.entries(properties).map(([name, property]): FormField => {
    const kind = kindOf(property);
    const choices = kind === "choice" ? (property.enum as unknown[]) : [];
    return {
      name,
      label: typeof property.title === "string" ? property.title : name,
      hint: typeof property.description === "string" ? property.description : "",
      kind,
      required: required.has(name),
      choices,
      initial: initialOf(kind, Object.hasOwn(values, name) ? values[name] : undefined, choices),
    };
  });
  return [...fields.filter((f) => f.required), ...fields.filter((f) => !f.required)];
}

// One field's input as an argument: `undefined` when an optional field is left empty.
function argumentOf(field: FormField, input: string | boolean): { value?: unknown; problem?: FieldProblem } {
  if (field.kind === "boolean") return input === true || field.required ? { value: input === true } : {};
  const text = String(input).trim();
  if (text === "") return field.required ? { problem: "required" } : {};
  if (field.kind === "choice") return { value: field.choices[Number(text)] };
  if (field.kind === "number" || field.kind === "integer") {
    const n = Number(text);
    if (!Number.isFinite(n)) return { problem: "number" };
    return field.kind === "integer" && !Number.isInteger(n) ? { problem: "integer" } : { value: n };
  }
  if (field.kind === "json") {
    try {
      return { value: JSON.parse(text) };
    } catch {
      return { problem: "json" };
    }
  }
  return { value: String(input) };
}

/** The tool's arguments from the form's inputs (by field name), or what is wrong with which field. */
export function formArguments(
  fields: FormField[],
  inputs: Map<string, string | boolean>,
): { ok: true; args: Record<string, unknown> } | { ok: false; problems: Map<string, FieldProblem> } {
  const args: Record<string, unknown> = {};
  const problems = new Map<string, FieldProblem>();
  for (const field of fields) {
    const { value, problem } = argumentOf(field, inputs.get(field.name) ?? field.initial);
    if (problem) problems.set(field.name, problem);
    else if (value !== undefined) Object.defineProperty(args, field.name, { value, enumerable: true, writable: true });
  }
  return problems.size > 0 ? { ok: false, problems } : { ok: true, args };
}

/** What the chat sends for a submitted form: the tool's served name and its arguments as JSON. */
export function formSubmissionText(toolName: string, args: Record<string, unknown>): string {
  return `${toolName} ${JSON.stringify(args)}`;
}
