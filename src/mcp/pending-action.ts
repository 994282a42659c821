import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { PendingAction } from "../shapes.ts";
import { pendingActionPayload } from "../tools/tool.ts";

/**
 * A pending action as an MCP tool result: the structured action, and text telling the agent to
 * show the preview and wait for the user's word before `confirm_action`.
 */
export function renderPendingAction(action: PendingAction): CallToolResult {
  const lines = action.preview.map((field) => `- ${field.label}: ${field.value}`);
  const open = action.ambiguities.map(
    (a) => `- ${a.field}: ${a.message} Choices: ${a.candidates.map((c) => `${c.label} (${c.id})`).join(", ") || "none"}.`,
  );
  const next =
    action.ambiguities.length > 0
      ? "Ask the user to settle what is still open, then prepare again with their choice. Do not confirm this action."
      : `Show this preview to the user and ask whether to go ahead. Only when they say yes, call confirm_action with action_id "${action.actionId}"; if they say no, call cancel_action. Never confirm on your own initiative.`;
  const text = [
    `Pending confirmation (nothing has been written yet): ${action.summary}`,
    ...lines,
    ...(open.length ? ["Still open:", ...open] : []),
    `Expires at ${action.expiresAt}.`,
    next,
  ].join("\n");
  return {
    structuredContent: pendingActionPayload(action),
    content: [{ type: "text", text }],
  };
}
