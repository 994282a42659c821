import { z } from "zod";
import { printableName } from "../validation.ts";

/** How long a username may be, in characters. */
export const USERNAME_LENGTH = { min: 2, max: 32 } as const;

// Letters and digits of any script, and . _ - @: what people use as names, numbers and addresses,
// with nothing that hides (spaces, formatting characters) or breaks a line.
const USERNAME_CHARACTERS = /^[\p{L}\p{M}\p{N}._@-]+$/u;

/**
 * A username as Weft keeps and compares it: NFKC-folded, so full-width `Ａdmin` is `admin` and
 * ligatures are their letters, then lower-cased (and folded again, since lower-casing can undo a
 * fold). Usernames are unique in the whole deployment in this form.
 *
 * @example canonicalUsername("Ａｄｍｉｎ") // "admin"
 */
export function canonicalUsername(raw: string): string {
  return raw.normalize("NFKC").toLowerCase().normalize("NFKC");
}

/**
 * A new username in a request: printable (no control or bidirectional formatting character,
 * answered 422 `unprintable_name`), then its canonical form, of 2 to 32 letters, digits, `.`, `_`,
 * `-` or `@`.
 */
export const NewUsernameSchema = z
  .string()
  .max(256)
  .superRefine(printableName)
  .trim()
  .transform(canonicalUsername)
  .pipe(
    z
      .string()
      .min(USERNAME_LENGTH.min, `a username has at least ${USERNAME_LENGTH.min} characters`)
      .max(USERNAME_LENGTH.max, `a username has at most ${USERNAME_LENGTH.max} characters`)
      .regex(USERNAME_CHARACTERS, "a username holds only letters, digits, '.', '_', '-' and '@', without spaces"),
  )
  .describe("What the person signs in with; unique in this Weft, whatever its case or width (Ａdmin is admin).");
