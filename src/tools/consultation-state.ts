import { z } from "zod";

/** The design's `SessionState`, as the output schema both consultation tools share. */
export const SessionStateSchema = z.object({
  session_id: z.string(),
  response: z.string(),
  current_step: z.string(),
  options: z.array(z.object({ id: z.string(), description: z.string() })),
  is_complete: z.boolean(),
});

/**
 * A step as its text: what to say, then each option by its id, which is what the agent sends next
 * (a client that reads only text must be able to go on too).
 */
export function stepText(state: z.output<typeof SessionStateSchema>): string {
  return [state.response, ...state.options.map((option) => `- ${option.id}: ${option.description}`)].join("\n");
}
