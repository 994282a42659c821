import { z } from "zod";
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

/**
 * Why a new password is refused, or null when it will do: at least 8 characters, not one of the
 * most common passwords (`common-passwords.txt`, whatever its case), and not the username. A
 * password is never trimmed or otherwise changed: what the person typed is what they sign in with.
 *
 * @example passwordProblem("woaini1314", "lijuan") // "it is one of the most common passwords…"
 */
export function passwordProblem(password: string, username?: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_LENGTH.min) return `a password has at least ${PASSWORD_LENGTH.min} characters`;
  if (length > PASSWORD_LENGTH.max) return `a password has at most ${PASSWORD_LENGTH.max} characters`;
  const folded = password.normalize("NFKC").toLowerCase();
  if (commonPasswords().has(folded)) return "it is one of the most common passwords, which are guessed first; choose another";
  if (username !== undefined && folded === username) return "it is the username; choose another";
  return null;
}

/** A new password in a request, checked by `passwordProblem` (the username, where there is one, is checked by the route). */
export const NewPasswordSchema = z
  .string()
  .superRefine((value, ctx) => {
    const problem = passwordProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .describe(`At least ${PASSWORD_LENGTH.min} characters, and not one of the most common passwords.`);
