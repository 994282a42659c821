import { jsonSchema, type ToolSet, tool } from "ai";
import { convertToFunctionSchema } from "../federation/function-schema.ts";
import type { JsonSchema, PendingAction, ToolFormData } from "../shapes.ts";
import { inputJsonSchema } from "../tools/json-schemas.ts";
import { runTool } from "../tools/run-tool.ts";
import type { Tool, ToolContext } from "../tools/tool.ts";

const schemas = new WeakMap<Tool, JsonSchema>();

/**
 * A tool's input as JSON Schema for a model, built once per tool and isolate. An external server's
 * schema is converted to what function calling accepts (references inlined, cycles cut); the
 * runtime still checks the arguments against the server's own schema.
 */
function inputSchemaOf(t: Tool): JsonSchema {
  let schema = schemas.get(t);
  if (!schema) {
    if (t.kind === "weft") schema = inputJsonSchema(t);
    else {
      const converted = convertToFunctionSchema(t.inputSchema);
      schema = converted.ok ? converted.parameters : t.inputSchema;
    }
    schemas.set(t, schema);
  }
  return schema;
}

/**
 * What the model reads after preparing a write: the action in its wire shape, and that the user
 * decides on the card (in the chat the card is how a person says yes).
 */
export function pendingForModel(action: PendingAction) {
  return {
    ...action,
    note: "Shown to the user as a confirm card with Confirm and Cancel buttons. Nothing is written until they click Confirm; do not say it is done.",
  };
}

/** What the model reads when the person is given a form for a tool's arguments instead. */
function formForModel(toolName: string, problem: string) {
  return {
    status: "needs_input",
    tool: toolName,
    problem,
    note: "Shown to the user as a form built from the tool's input schema, with what you gave filled in. Submitting it calls the tool; do not call it again with guessed arguments.",
  };
}

/**
 * A tool failure as the model and the UI see it: the SDK shows an error as `name: message`, so
 * the name is the runtime's error code and the message its safe message.
 */
class ToolFailure extends Error {
  constructor(code: string, message: string) {
    super(message);
    this.name = code;
  }
}

/**
 * The registry's tools for this caller as the AI SDK's tool set: each described by its JSON
 * Schema and run through `runTool`, the same runtime MCP uses (input checked strictly there, so
 * the SDK does not check it a second way). A pending action goes to `onPending` (the confirm card)
 * and the model gets a note that the user decides; a result goes to `onResult` too (a search's
 * results become the sources the reply cites). An external tool called with arguments its schema
 * refuses goes to `onForm` (a form for the person to fill) when there is one; any other failure
 * becomes a tool error with the runtime's safe message.
 */
export function modelTools({
  tools,
  ctx,
  onPending,
  onResult,
  onForm,
}: {
  tools: Tool[];
  ctx: ToolContext;
  onPending: (action: PendingAction) => void;
  onResult?: (toolName: string, output: unknown) => void;
  onForm?: (toolCallId: string, form: ToolFormData) => void;
}): ToolSet {
  // A write is confirmed or cancelled by the person's click on its card, never by the model, so the
  // chat does not offer the tools that decide one to the model at all.
  const entries = tools
    .filter((t) => !t.decidesAction)
    .map((t) => [
      t.name,
      tool({
        title: t.title,
        description: t.description,
        inputSchema: jsonSchema<Record<string, unknown>>(inputSchemaOf(t) as Parameters<typeof jsonSchema>[0]),
        async execute(input: Record<string, unknown>, { toolCallId }) {
          const outcome = await runTool(t, ctx, input);
          if (!outcome.ok && outcome.code === "invalid_input" && t.kind === "json-schema" && onForm) {
            const schema = inputSchemaOf(t);
            onForm(toolCallId, { toolName: t.name, title: t.title, description: t.description, schema, values: input });
            return formForModel(t.name, outcome.message);
          }
          if (!outcome.ok) throw new ToolFailure(outcome.code, outcome.message);
          if (outcome.kind === "pending_action") {
            onPending(outcome.action);
            return pendingForModel(outcome.action);
          }
          onResult?.(t.name, outcome.structured);
          return outcome.structured;
        },
      }),
    ]);
  return Object.fromEntries(entries);
}
