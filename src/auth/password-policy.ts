import { z } from "zod";
import { AppError } from "../errors.ts";
import type { PasswordRefusal } from "../shapes.ts";
import COMMON_PASSWORDS from "./common-passwords.txt";

/** The shortest and longest new password, in characters (the longest bounds the hashing's work). */
export const PASSWORD_LENGTH = { min: 8, max: 256 } as const;

// Built on first use and kept by the isolate: about a thousand short strings, one split of the text.
let common: Set<string> | undefined;

function commonPasswords(): Set<string> {
  common ??= new Set(
    COMMON_PASSWORDS.split("\n")
      .map((line) => line.trim().toLowerCase())
      .filter((line) => line !== "" && !line.startsWith("#")),
  );
  return common;
}

const MESSAGES: Record<PasswordRefusal, string> = {
  too_short: `a password has at least ${PASSWORD_LENGTH.min} characters`,
  too_long: `a password has at most ${PASSWORD_LENGTH.max} characters`,
  common: "it is one of the most common passwords, which are guessed first; choose another",
  username: "it is the username; choose another",
  unchanged: "it is the current password; choose another",
  wrong_current: "it is not your current password",
};

/**
 * Why a new password is refused, or null when it will do: at least 8 characters, not one of the
 * most common passwords (`common-passwords.txt`, whatever its case or width), and not the username.
 * A password is never trimmed or otherwise changed: what the person typed is what they sign in with.
 *
 * @example passwordProblem("woaini1314", "lijuan") // "common"
 */
export function passwordProblem(password: string, username?: string): PasswordRefusal | null {
  const length = [...password].length;
  if (length < PASSWORD_LENGTH.min) return "too_short";
  if (length > PASSWORD_LENGTH.max) return "too_long";
  const folded = password.normalize("NFKC").toLowerCase();
  if (commonPasswords().has(folded)) return "common";
  if (username !== undefined && folded === username) return "username";
  return null;
}

/**
 * The 400 for a refused password, naming the field and why in words and as `details.reason`, which
 * the browser turns into the person's language.
 */
export function passwordRefused(field: string, reason: PasswordRefusal): AppError {
  return new AppError("bad_request", `Invalid request body: ${field}: ${MESSAGES[reason]}`, { details: { field, reason } });
}

/** Throws `passwordRefused` for a new password `passwordProblem` refuses. */
export function checkNewPassword(field: string, password: string, username?: string): void {
  const problem = passwordProblem(password, username);
  if (problem) throw passwordRefused(field, problem);
}

/** A password in a request, bounded so that hashing never sees a megabyte; the policy is checked apart (`checkNewPassword`). */
export const PasswordField = z.string().min(1).max(PASSWORD_LENGTH.max);
