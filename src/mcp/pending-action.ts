import type { CallToolResult } from "@modelcontextprotocol/server";
import { agentPreviewText } from "../preview-text.ts";
import type { ConfirmBy, PendingAction } from "../shapes.ts";
import { nextStepFor } from "../tools/confirm-by.ts";

/**
 * A pending action as an MCP tool result: the action in its wire shape (with its confirm page's
 * link) as structured content, and text telling the agent what to do next, by what its
 * credential allows (`confirm_by`): with `agent`, show the preview and wait for the user's word
 * before `confirm_action`; otherwise give the user the confirm page's link.
 */
export function renderPendingAction(action: PendingAction, confirmBy: ConfirmBy): CallToolResult {
  const open = action.ambiguities.map(
    (a) => `- ${a.field}: ${a.message} Choices: ${a.candidates.map((c) => `${c.label} (${c.id})`).join(", ") || "none"}.`,
  );
  const next =
    action.ambiguities.length > 0
      ? "Ask the user to settle what is still open, then prepare again with their choice. Do not confirm this action."
      : nextStepFor(confirmBy, action.action_id, action.confirm_url);
  const text = [
    agentPreviewText(action),
    ...(open.length ? ["Still open:", ...open] : []),
    `Expires at ${action.expires_at}.`,
    next,
  ].join("\n");
  return { structuredContent: { ...action }, content: [{ type: "text", text }] };
}
