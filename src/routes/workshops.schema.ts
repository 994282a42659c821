import { z } from "zod";
import { PasswordField } from "../auth/password-policy.ts";
import { NewUsernameSchema } from "../auth/usernames.ts";
import { printableName } from "../validation.ts";

/** `POST /api/workshops`: a new workshop and its boss. */
export const SignUpSchema = z.strictObject({
  workshop_name: z.string().superRefine(printableName).trim().min(1).max(100).describe("The workshop's name, e.g. 锦绣制衣."),
  name: z.string().superRefine(printableName).trim().min(1).max(100).describe("The boss's name, e.g. 王老板."),
  username: NewUsernameSchema,
  password: PasswordField.describe("At least 8 characters, not one of the most common passwords, not the username."),
  invite_code: z
    .string()
    .max(64)
    .optional()
    .describe("The one-time code from this Weft's operator, when it signs workshops up by invitation."),
});
