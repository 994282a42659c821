import { z } from "zod";
import { continueConsultation } from "../consult/sessions.ts";
import { SessionStateSchema } from "./consultation-state.ts";
import { defineTool } from "./tool.ts";

/** Moves a guided consultation one step. */
export const navigateSessionTool = defineTool({
  name: "navigate_session",
  title: "Continue a guided consultation",
  description:
    "Continue a consultation started with initiate_session. When the user picks an option (by number, by its words, or " +
    "by meaning), send that option's `id` as selected_option_id. When their reply does not clearly map to one option, " +
    "send selected_option_id 'provide_more_info' with their words verbatim in user_input: the server matches them to an " +
    "option or asks again. 'back' returns to the previous step and 'end' finishes, at any step. Show `response` and the " +
    "options to the user each time; stop when is_complete is true.",
  inputSchema: z.object({
    session_id: z.string().trim().min(1).max(128).describe("The session_id returned by initiate_session."),
    selected_option_id: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .describe("The id of the chosen option, or 'back', 'end', or 'provide_more_info' (with user_input)."),
    user_input: z
      .string()
      .trim()
      .max(2000)
      .optional()
      .describe("The user's own words. Required with 'provide_more_info'; optional extra detail otherwise."),
  }),
  outputSchema: SessionStateSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(ctx, input) {
    const state = await continueConsultation({
      consult: ctx.services.consult,
      user: ctx.user,
      sessionId: input.session_id,
      optionId: input.selected_option_id,
      userInput: input.user_input,
    });
    return { kind: "result", structured: state };
  },
});
