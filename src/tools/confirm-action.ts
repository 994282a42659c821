import { z } from "zod";
import { confirmAction, getAction, refuseConfirm } from "../actions/actions.ts";
import { agentPreviewText } from "../preview-text.ts";
import { actionIdField } from "./action-id.ts";
import { actionViewResult, DecidedActionSchema } from "./action-results.ts";
import { DECIDES } from "./business-fields.ts";
import { confirmAllows } from "./confirm-by.ts";
import { defineTool } from "./tool.ts";
import { pick, said } from "./words.ts";

/**
 * Second step of a write, for agents: executes a prepared action once, only with a credential
 * whose owner chose `confirm_by: agent`. Anyone else gets the confirm page's link for a person to
 * say yes. The audit records the preview as the agent was given it.
 */
export const confirmActionTool = defineTool({
  name: "confirm_action",
  words: { title: said("确认写入", "Confirm a prepared write"), icon: "write", results: pick("order_no") },
  description:
    "Execute a prepared write ONLY after the user saw its preview and explicitly said yes; never on your own " +
    "initiative. Refused (confirmation_required, with confirm_url for the user) unless confirm_by is agent, and if " +
    "choices are open, or it expired, was cancelled or changed since: tell the user, prepare again.",
  inputSchema: z.object({ action_id: actionIdField }),
  outputSchema: DecidedActionSchema,
  annotations: DECIDES,
  decidesAction: true,
  async run(ctx, input) {
    const { actions, user } = { actions: ctx.services.actions, user: ctx.user };
    const { by, credential } = ctx.confirming;
    if (!confirmAllows(by, "agent")) {
      return refuseConfirm({
        actions,
        user,
        actionId: input.action_id,
        why: "Whoever owns this key or connection has not let agents confirm writes (they can choose that in Weft's settings).",
      });
    }
    const before = await getAction({ actions, user, actionId: input.action_id });
    const view = await confirmAction({
      actions,
      user,
      actionId: input.action_id,
      confirmation: { via: "agent_key", credential, shown: agentPreviewText },
    });
    const structured = actionViewResult(view, { before: before.status });
    return { kind: "result", structured, text: structured.tell_user };
  },
});
