import { z } from "zod";
import { beginConsultation } from "../consult/sessions.ts";
import { WRITES } from "./business-fields.ts";
import { SessionStateSchema, stepText } from "./consultation-state.ts";
import { defineTool } from "./tool.ts";
import { pick, said } from "./words.ts";

/** Starts a guided, multi-turn consultation over the decision trees. */
export const initiateSessionTool = defineTool({
  name: "initiate_session",
  words: {
    title: said("开始咨询", "Start a consultation"),
    icon: "consult",
    fields: pick("user_query"),
    offer: said("引导式咨询（例如：“衣服起皱怎么办”）", 'guided consultations ("help me troubleshoot a garment defect")'),
  },
  description:
    "Start a guided consultation to a diagnosis (a garment defect: 跳针, 起皱) from the user's first question, in " +
    "their words. Show `response` as written and each option as a numbered choice; go on with navigate_session.",
  inputSchema: z.object({
    user_query: z.string().trim().min(1).max(2000).describe("The user's original question, verbatim, in any language."),
  }),
  outputSchema: SessionStateSchema,
  annotations: WRITES,
  async run(ctx, input) {
    const state = await beginConsultation({
      consult: ctx.services.consult,
      user: ctx.user,
      userQuery: input.user_query,
    });
    return { kind: "result", structured: state, text: stepText(state) };
  },
});
