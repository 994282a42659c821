import { z } from "zod";
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

export const UpdateApiKeySchema = z.strictObject({
  agent_confirm: z
    .boolean()
    .describe("Whether agents may confirm prepared writes with this key (confirm_action over MCP, the REST confirm route)."),
});
