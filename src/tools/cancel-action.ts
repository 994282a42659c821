import { z } from "zod";
import { cancelAction } from "../actions/actions.ts";
import { ActionViewSchema, actionIdField } from "./action-view.ts";
import { defineTool } from "./tool.ts";

/** Discards a prepared write. */
export const cancelActionTool = defineTool({
  name: "cancel_action",
  title: "Cancel a prepared write",
  description:
    "Discard a prepared write (from a prepare tool, or an external tool that needs confirmation) when the user says no or changes their mind. " +
    "Nothing is written. Cancelling twice is harmless; a confirmed action cannot be cancelled.",
  inputSchema: z.object({ action_id: actionIdField }),
  outputSchema: ActionViewSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    const view = await cancelAction({ actions: ctx.services.actions, user: ctx.user, actionId: input.action_id });
    return { kind: "result", structured: view, text: `Cancelled: ${view.summary}. Nothing was written.` };
  },
});
