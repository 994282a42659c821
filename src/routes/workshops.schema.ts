import { z } from "zod";
import { NewPasswordSchema } from "../auth/password-policy.ts";
import { NewUsernameSchema } from "../auth/usernames.ts";
import { printableName } from "../validation.ts";

/** `POST /api/workshops`: a new workshop and its boss. */
export const SignUpSchema = z
  .strictObject({
    workshop_name: z.string().superRefine(printableName).trim().min(1).max(100).describe("The workshop's name, e.g. 锦绣制衣."),
    name: z.string().superRefine(printableName).trim().min(1).max(100).describe("The boss's name, e.g. 王老板."),
    username: NewUsernameSchema,
    password: NewPasswordSchema,
    invite_code: z
      .string()
      .max(64)
      .optional()
      .describe("The one-time code from this Weft's operator, when it signs workshops up by invitation."),
  })
  .superRefine((body, ctx) => {
    if (body.password.normalize("NFKC").toLowerCase() === body.username) {
      ctx.addIssue({ code: "custom", path: ["password"], message: "it is the username; choose another" });
    }
  });
