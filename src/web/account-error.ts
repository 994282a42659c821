import type { PasswordRefusal } from "../shapes.ts";
import { ApiError } from "./api-error.ts";
import type { passwordWords } from "./password-words.ts";

const REFUSALS: readonly PasswordRefusal[] = ["too_short", "too_long", "common", "username", "unchanged", "wrong_current"];

/**
 * A failed account request in the person's language: a refused password by its `details.reason`,
 * a taken username, too many attempts; anything else as Weft's own message.
 */
export function accountErrorText(error: unknown, words: ReturnType<typeof passwordWords>): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  const details = (error.body as { error?: { details?: { reason?: unknown; field?: unknown } } } | undefined)?.error?.details;
  const reason = REFUSALS.find((r) => r === details?.reason);
  if (reason) return words.refused[reason];
  if (error.status === 409 && details?.field === "username") return words.usernameTaken;
  if (error.status === 429) return words.tooMany(Math.max(1, Math.ceil((error.retryAfterSeconds ?? 60) / 60)));
  return error.message;
}
