import { z } from "zod";

/** The design's `SessionState`, as the output schema both consultation tools share. */
export const SessionStateSchema = z.object({
  session_id: z.string().describe("Pass this to navigate_session to continue."),
  response: z.string().describe("Say this to the user, as written."),
  current_step: z.string().describe("A short name for the current step."),
  options: z
    .array(z.object({ id: z.string(), description: z.string() }))
    .describe("What the user can choose next. Show every description; send the chosen id."),
  is_complete: z.boolean().describe("True when the consultation has ended; no further navigation is possible."),
});
