import { z } from "zod";
import { confirmAction, refuseAgentConfirm } from "../actions/actions.ts";
import { ActionViewSchema, actionIdField } from "./action-view.ts";
import { defineTool } from "./tool.ts";

/**
 * Second step of a write, for agents: executes a prepared action once, only with a key whose owner
 * allowed agents to confirm. Anyone else gets the confirm page's link for a person to say yes.
 */
export const confirmActionTool = defineTool({
  name: "confirm_action",
  title: "Confirm a prepared write",
  description:
    "Execute a write prepared by a prepare tool (prepare_piece_record, prepare_order, ...) or by an external tool that " +
    "needs confirmation. Call it ONLY after you showed the user the preview and they explicitly said yes to it in " +
    "this conversation; never on your own initiative, never to 'finish the task'. It works only with an API key whose " +
    "owner allowed agents to confirm; otherwise it answers confirmation_required with the confirm page's link " +
    "(confirm_url): give that link to the user, who confirms there after signing in. It writes exactly once: " +
    "confirming again returns the first result. It refuses if the action has open ambiguities, expired (10 minutes by " +
    "default), was cancelled, belongs to someone else, or if something changed since it was prepared (order closed, " +
    "price changed): then tell the user and prepare again.",
  inputSchema: z.object({ action_id: actionIdField }),
  outputSchema: ActionViewSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    const actions = ctx.services.actions;
    if (!ctx.agentConfirm) {
      return refuseAgentConfirm({ actions, user: ctx.user, actionId: input.action_id, origin: ctx.origin });
    }
    const view = await confirmAction({
      actions,
      user: ctx.user,
      actionId: input.action_id,
      confirmation: { via: "agent_key", keyPrefix: ctx.agentConfirm.keyPrefix },
    });
    return { kind: "result", structured: view, text: `Done: ${view.summary}` };
  },
});
