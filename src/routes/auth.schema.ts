import { z } from "zod";
import { PasswordField } from "../auth/password-policy.ts";

/** `POST /api/auth/login`: both fields bounded, so hashing never sees a megabyte of password. */
export const LoginSchema = z.strictObject({
  username: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(256),
});

/** `POST /api/auth/password`: the caller's own password, changed. */
export const ChangePasswordSchema = z.strictObject({
  current_password: PasswordField.describe("The password they sign in with now."),
  new_password: PasswordField.describe("At least 8 characters, not one of the most common passwords, not the username."),
});

/** A one-time link's token, as the set-password page reads it from the link's fragment. */
const LinkToken = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, "a link's token is 43 characters of A-Z, a-z, 0-9, '-' and '_'")
  .describe("The token after #token= in the link.");

/** `POST /api/auth/set-password/check`: whose password a link sets. */
export const PasswordLinkSchema = z.strictObject({ token: LinkToken });

/** `POST /api/auth/set-password`: a password set through a one-time link. */
export const SetPasswordSchema = z.strictObject({
  token: LinkToken,
  password: PasswordField.describe("At least 8 characters, not one of the most common passwords, not the username."),
});
