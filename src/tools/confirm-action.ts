import { z } from "zod";
import { confirmAction, refuseConfirm } from "../actions/actions.ts";
import { agentPreviewText } from "../preview-text.ts";
import { ActionViewSchema, actionIdField } from "./action-view.ts";
import { confirmAllows } from "./confirm-by.ts";
import { defineTool } from "./tool.ts";

/**
 * Second step of a write, for agents: executes a prepared action once, only with a credential
 * whose owner chose `confirm_by: agent`. Anyone else gets the confirm page's link for a person to
 * say yes. The audit records the preview as the agent was given it.
 */
export const confirmActionTool = defineTool({
  name: "confirm_action",
  title: "Confirm a prepared write",
  description:
    "Execute a write prepared by a prepare tool (prepare_piece_record, prepare_order, ...) or by an external tool that " +
    "needs confirmation. Call it ONLY after you showed the user the preview and they explicitly said yes to it in " +
    "this conversation; never on your own initiative, never to 'finish the task'. It works only if the person who " +
    "owns this API key or connection chose to let agents confirm (confirm_by: agent); otherwise it answers " +
    "confirmation_required with the confirm page's link (confirm_url): give that link to the user, who confirms there " +
    "after signing in. It writes exactly once: confirming again returns the first result. It refuses if the action has " +
    "open ambiguities, expired (10 minutes by default), was cancelled, belongs to someone else, or if something " +
    "changed since it was prepared (order closed, price changed): then tell the user and prepare again.",
  inputSchema: z.object({ action_id: actionIdField }),
  outputSchema: ActionViewSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    const actions = ctx.services.actions;
    const { by, credential } = ctx.confirming;
    if (!confirmAllows(by, "agent")) {
      return refuseConfirm({
        actions,
        user: ctx.user,
        actionId: input.action_id,
        why: "Whoever owns this key or connection has not let agents confirm writes (they can choose that in Weft's settings).",
      });
    }
    const view = await confirmAction({
      actions,
      user: ctx.user,
      actionId: input.action_id,
      confirmation: { via: "agent_key", credential, shown: agentPreviewText },
    });
    return { kind: "result", structured: view, text: `Done: ${view.summary}` };
  },
});
