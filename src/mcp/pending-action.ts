import type { CallToolResult } from "@modelcontextprotocol/server";
import type { PendingAction } from "../shapes.ts";
import { pendingActionPayload } from "../tools/tool.ts";

/**
 * A pending action as an MCP tool result: the structured action with its confirm page's link, and
 * text telling the agent what to do next. With a key that may confirm, the agent shows the preview
 * and waits for the user's word before `confirm_action`; with any other, the user confirms on the
 * confirm page, whose link the agent gives them.
 */
export function renderPendingAction(action: PendingAction, confirmUrl: string, agentMayConfirm: boolean): CallToolResult {
  const lines = action.preview.map((field) => `- ${field.label}: ${field.value}`);
  const open = action.ambiguities.map(
    (a) => `- ${a.field}: ${a.message} Choices: ${a.candidates.map((c) => `${c.label} (${c.id})`).join(", ") || "none"}.`,
  );
  const next =
    action.ambiguities.length > 0
      ? "Ask the user to settle what is still open, then prepare again with their choice. Do not confirm this action."
      : agentMayConfirm
        ? `Show this preview to the user and ask whether to go ahead. Only when they say yes, call confirm_action with action_id "${action.actionId}"; if they say no, call cancel_action. Never confirm on your own initiative. (They can also confirm it themselves at ${confirmUrl}.)`
        : `Show this preview to the user and give them this link to confirm it, signed in to Weft: ${confirmUrl} . This key may not confirm writes, so confirm_action will not work; if they say no, call cancel_action.`;
  const text = [
    `Pending confirmation (nothing has been written yet): ${action.summary}`,
    ...lines,
    ...(open.length ? ["Still open:", ...open] : []),
    `Expires at ${action.expiresAt}.`,
    next,
  ].join("\n");
  return {
    structuredContent: pendingActionPayload(action, confirmUrl),
    content: [{ type: "text", text }],
  };
}
