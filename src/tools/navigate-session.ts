import { z } from "zod";
import { continueConsultation } from "../consult/sessions.ts";
import { WRITES } from "./business-fields.ts";
import { SessionStateSchema, stepText } from "./consultation-state.ts";
import { defineTool } from "./tool.ts";
import { said } from "./words.ts";

/** Moves a guided consultation one step. */
export const navigateSessionTool = defineTool({
  name: "navigate_session",
  words: {
    title: said("咨询下一步", "Next consultation step"),
    icon: "consult",
    fields: { selected_option_id: said("选项", "option"), user_input: said("补充", "more") },
  },
  description:
    "Continue a consultation with the chosen option's id (chosen by number, words or meaning), or provide_more_info " +
    "with the user's words when no option fits; back and end work at any step. Show `response` and the options; stop " +
    "when is_complete.",
  inputSchema: z.object({
    session_id: z.string().trim().min(1).max(128).describe("From initiate_session."),
    selected_option_id: z.string().trim().min(1).max(64).describe("An option's id, back, end or provide_more_info."),
    user_input: z.string().trim().max(2000).optional().describe("The user's words, for provide_more_info."),
  }),
  outputSchema: SessionStateSchema,
  annotations: WRITES,
  async run(ctx, input) {
    const state = await continueConsultation({
      consult: ctx.services.consult,
      user: ctx.user,
      sessionId: input.session_id,
      optionId: input.selected_option_id,
      userInput: input.user_input,
    });
    return { kind: "result", structured: state, text: stepText(state) };
  },
});
