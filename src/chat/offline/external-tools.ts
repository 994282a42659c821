import { EXTERNAL_TOOL_PREFIX } from "../../tools/tool-names.ts";

/** An external tool as the model is offered it: its served name and its input's JSON Schema. */
export interface OfferedExternal {
  name: string;
  properties: Record<string, PropertySchema>;
  required: string[];
}

interface PropertySchema {
  type?: unknown;
  enum?: unknown;
  description?: unknown;
}

// Words around a tool's name that ask for it to be called, not what to pass it.
const FILLER =
  /(?:请|帮我|用一下|调用|使用|用|的|工具|服务|说一下|说|讲|：|:|，|,|。|\b(?:please|call|use|run|with|the|tool|say|says|of|to)\b)/gi;
// A cue that a named word is a tool to call ("用 echo", "调用 get-sum", "call echo").
const CALL_CUE = /用|调用|\b(?:call|use|run)\b/i;
const NUMBER = /-?\d+(?:\.\d+)?/g;

function sanitize(word: string): string {
  return word
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, "_")
    .replace(/_+/g, "_");
}

function typeOf(schema: PropertySchema | undefined): string {
  const type = schema?.type;
  return Array.isArray(type) ? String(type.find((t) => t !== "null") ?? "") : String(type ?? "");
}

/**
 * The external tool a request names ("echo hello", "用 everything 的 echo 说你好", "调用 get-sum 2 和 3"),
 * with the arguments read for its simple fields: numbers in the order the schema lists them, an
 * enum's value said in the text, and the rest of the words for its one string field. A word is a
 * tool's name when the request starts with it, names its server, or asks to call it.
 */
export function externalCall(
  text: string,
  tools: OfferedExternal[],
): { toolName: string; input: Record<string, unknown> } | null {
  const words = [...text.matchAll(/[A-Za-z][A-Za-z0-9_-]*/g)].map((m) => ({ raw: m[0], at: m.index }));
  for (const word of words) {
    const token = sanitize(word.raw);
    if (token.length < 3) continue;
    // Two servers may offer a tool of one name: the one whose server the request names, else the first.
    const named = tools
      .filter((t) => t.name.startsWith(EXTERNAL_TOOL_PREFIX) && t.name.endsWith(`_${token}`))
      .map((t) => {
        const server = t.name.slice(EXTERNAL_TOOL_PREFIX.length, -token.length - 1);
        return { tool: t, serverSaid: words.find((w) => w !== word && sanitize(w.raw) === server) };
      });
    const found = named.find((n) => n.serverSaid) ?? named[0];
    if (!found) continue;
    const { tool, serverSaid } = found;
    if (text.slice(0, word.at).trim() !== "" && !serverSaid && !CALL_CUE.test(text)) continue;
    let rest = text.slice(0, word.at) + text.slice(word.at + word.raw.length);
    if (serverSaid) rest = rest.replace(serverSaid.raw, " ");
    return { toolName: tool.name, input: fill(tool, rest) };
  }
  return null;
}

// The arguments a simple schema takes from the words left once the tool's name is out.
function fill(tool: OfferedExternal, rest: string): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const names = [...new Set([...tool.required, ...Object.keys(tool.properties)])];
  const numbers = [...rest.matchAll(NUMBER)].map((m) => Number(m[0]));
  let words = rest;
  for (const name of names) {
    const schema = Object.hasOwn(tool.properties, name) ? tool.properties[name] : undefined;
    const type = typeOf(schema);
    if (Array.isArray(schema?.enum)) {
      const said = schema.enum.find((v) => typeof v === "string" && rest.includes(v));
      if (said !== undefined) input[name] = said;
    } else if ((type === "number" || type === "integer") && numbers.length > 0) {
      const value = numbers.shift() as number;
      if (type === "number" || Number.isInteger(value)) input[name] = value;
      words = words.replace(String(value), " ");
    }
  }
  const strings = names.filter((n) => typeOf(tool.properties[n]) === "string" && !Array.isArray(tool.properties[n]?.enum));
  const said = words.replace(FILLER, " ").replace(/\s+/g, " ").trim();
  const first = strings[0];
  if (first && said) input[first] = said;
  return input;
}

const SIMPLE = new Set(["string", "number", "integer", "boolean"]);

/**
 * Whether what a request leaves out of a tool's required arguments is better filled in a form than
 * asked for in words: several of them, or one that is not a plain string, number or yes/no (an
 * object, a list, a shape without a type). The chat shows that form when the call is refused.
 */
export function needsForm(tool: Pick<OfferedExternal, "properties">, missing: string[]): boolean {
  if (missing.length >= 2) return true;
  return missing.some((name) => {
    const schema = Object.hasOwn(tool.properties, name) ? tool.properties[name] : undefined;
    return !Array.isArray(schema?.enum) && !SIMPLE.has(typeOf(schema));
  });
}

// A form's submission, as the chat sends it: the tool's served name, then its arguments as JSON.
const SUBMISSION = /^\s*(mcp_[a-z0-9_]{1,64})\s+(\{[\s\S]*\})\s*$/;

/**
 * The call a submitted form asks for (`mcp_forms_measure {"size":"M","chest":96}`): the tool, if
 * it is offered, and the arguments as written, which the runtime checks against its schema.
 */
export function formSubmission(
  text: string,
  offered: (name: string) => boolean,
): { toolName: string; input: Record<string, unknown> } | null {
  const match = SUBMISSION.exec(text);
  if (!match?.[1] || !match[2] || !offered(match[1])) return null;
  try {
    const input: unknown = JSON.parse(match[2]);
    if (typeof input !== "object" || input === null || Array.isArray(input)) return null;
    return { toolName: match[1], input: input as Record<string, unknown> };
  } catch {
    return null;
  }
}

/** The text an external tool answered with (MCP content blocks), or `null` when it answered otherwise. */
export function externalText(output: unknown): string | null {
  const content = (output as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return null;
  const texts = content.flatMap((c) =>
    c && typeof c === "object" && c.type === "text" && typeof c.text === "string" ? [c.text] : [],
  );
  return texts.length > 0 ? texts.join("\n\n") : null;
}
