import { z } from "zod";
import { CONFIRM_BY } from "../tools/confirm-by.ts";
import { printableName } from "../validation.ts";

export const CreateApiKeySchema = z.strictObject({
  name: z
    .string()
    .superRefine(printableName)
    .trim()
    .min(1)
    .max(100)
    .describe("A label to recognise the key by, e.g. 'Cursor on Li's laptop'."),
  user_id: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("Whose key it is; defaults to the caller. Only an admin may name someone else in their workshop."),
});
export type CreateApiKey = z.infer<typeof CreateApiKeySchema>;

/** `PATCH /api/keys/:id`, from a signed-in browser only. (`agent_confirm` is only read now: `confirm_by` says it.) */
export const UpdateApiKeySchema = z.strictObject({
  confirm_by: z
    .enum(CONFIRM_BY)
    .describe(
      "Who may say yes to a write prepared with this key: 'weft' (only Weft's card, confirm page or URL elicitation), 'client' (also the person's MCP client asking them), 'agent' (also the agent, with confirm_action).",
    ),
});
