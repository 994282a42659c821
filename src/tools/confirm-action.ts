import { z } from "zod";
import { confirmAction, getAction, refuseAgentConfirm } from "../actions/actions.ts";
import { actionIdField } from "./action-id.ts";
import { actionViewResult, DecidedActionSchema } from "./action-results.ts";
import { DECIDES } from "./business-fields.ts";
import { defineTool } from "./tool.ts";
import { pick, said } from "./words.ts";

/**
 * Second step of a write, for agents: executes a prepared action once, only with a key whose owner
 * allowed agents to confirm. Anyone else gets the confirm page's link for a person to say yes.
 */
export const confirmActionTool = defineTool({
  name: "confirm_action",
  words: { title: said("确认写入", "Confirm a prepared write"), icon: "write", results: pick("order_no") },
  description:
    "Execute a prepared write ONLY after the user saw its preview and explicitly said yes; never on your own initiative. Only " +
    "where the prepare result said confirm_by agent (else confirmation_required with confirm_url for the user). " +
    "Refused if choices are open, or it expired, was cancelled or changed since: tell the user, prepare again.",
  inputSchema: z.object({ action_id: actionIdField }),
  outputSchema: DecidedActionSchema,
  annotations: DECIDES,
  decidesAction: true,
  async run(ctx, input) {
    const { actions, user } = { actions: ctx.services.actions, user: ctx.user };
    if (!ctx.agentConfirm) {
      return refuseAgentConfirm({ actions, user, actionId: input.action_id, origin: ctx.origin });
    }
    const before = await getAction({ actions, user, actionId: input.action_id });
    const view = await confirmAction({
      actions,
      user,
      actionId: input.action_id,
      confirmation: { via: "agent_key", keyPrefix: ctx.agentConfirm.keyPrefix },
    });
    const structured = await actionViewResult(ctx, view, { before: before.status });
    return { kind: "result", structured, text: structured.summary };
  },
});
