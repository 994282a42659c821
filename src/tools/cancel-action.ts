import { z } from "zod";
import { cancelAction, getAction } from "../actions/actions.ts";
import { actionIdField } from "./action-id.ts";
import { actionViewResult, DecidedActionSchema } from "./action-results.ts";
import { DECIDES } from "./business-fields.ts";
import { defineTool } from "./tool.ts";
import { pick, said } from "./words.ts";

/** Discards a prepared write. */
export const cancelActionTool = defineTool({
  name: "cancel_action",
  words: { title: said("取消待确认的写入", "Cancel a prepared write"), icon: "write", results: pick("order_no") },
  description: "Discard a prepared write when the user says no. Nothing is written; a confirmed write cannot be cancelled.",
  inputSchema: z.object({ action_id: actionIdField }),
  outputSchema: DecidedActionSchema,
  annotations: DECIDES,
  decidesAction: true,
  async run(ctx, input) {
    const { actions, user } = { actions: ctx.services.actions, user: ctx.user };
    const before = await getAction({ actions, user, actionId: input.action_id });
    const view = await cancelAction({ actions, user, actionId: input.action_id });
    const structured = actionViewResult(view, { before: before.status });
    return { kind: "result", structured, text: structured.tell_user };
  },
});
