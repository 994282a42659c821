import { z } from "zod";
import { beginConsultation } from "../consult/sessions.ts";
import { SessionStateSchema } from "./consultation-state.ts";
import { defineTool } from "./tool.ts";

/** Starts a guided, multi-turn consultation over the decision trees. */
export const initiateSessionTool = defineTool({
  name: "initiate_session",
  title: "Start a guided consultation",
  description:
    "Start a guided consultation that walks the user step by step through expert knowledge (for example diagnosing a " +
    "garment quality defect, or technology investment questions). Call it with the user's first question in their own " +
    "words; it picks the most relevant topic and step, or asks the user to choose a topic. Then show `response` to the " +
    "user as written and list every option as a numbered choice using its `description`. Continue with navigate_session: " +
    "the chosen option's id, or 'provide_more_info' with the user's words when their reply fits no option clearly.",
  inputSchema: z.object({
    user_query: z.string().trim().min(1).max(2000).describe("The user's original question, verbatim, in any language."),
  }),
  outputSchema: SessionStateSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(ctx, input) {
    const state = await beginConsultation({
      consult: ctx.services.consult,
      user: ctx.user,
      userQuery: input.user_query,
    });
    return { kind: "result", structured: state };
  },
});
