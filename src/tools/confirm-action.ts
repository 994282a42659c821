import { z } from "zod";
import { confirmAction } from "../actions/actions.ts";
import { ActionViewSchema, actionIdField } from "./action-view.ts";
import { defineTool } from "./tool.ts";

/** Second step of a write: executes a prepared action once, on the user's word. */
export const confirmActionTool = defineTool({
  name: "confirm_action",
  title: "Confirm a prepared write",
  description:
    "Execute a write prepared by a prepare tool (prepare_piece_record, prepare_order, ...) or by an external tool that needs confirmation. Call it ONLY after you showed the user the " +
    "preview and they explicitly said yes to it in this conversation; never on your own initiative, never to 'finish " +
    "the task'. It writes exactly once: confirming again returns the first result. It refuses if the action has " +
    "open ambiguities, expired (10 minutes by default), was cancelled, belongs to someone else, or if something changed " +
    "since it was prepared (order closed, price changed): then tell the user and prepare again.",
  inputSchema: z.object({ action_id: actionIdField }),
  outputSchema: ActionViewSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    const view = await confirmAction({ actions: ctx.services.actions, user: ctx.user, actionId: input.action_id });
    return { kind: "result", structured: view, text: `Done: ${view.summary}` };
  },
});
