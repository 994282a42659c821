import { z } from "zod";

/** The design's `SessionState`, as the output schema both consultation tools share. */
export const SessionStateSchema = z.object({
  session_id: z.string(),
  response: z.string(),
  current_step: z.string(),
  options: z.array(z.object({ id: z.string(), description: z.string() })),
  is_complete: z.boolean(),
});
