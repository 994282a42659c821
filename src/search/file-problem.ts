import type { FileProblemReason } from "../shapes.ts";

/** Why a file could not be read, as a code and its figures: what a failed document stores and shows. */
export interface FileProblem {
  reason: FileProblemReason;
  params: Record<string, string | number>;
}

/**
 * The `details` of an `AppError` about a file: a reason code and its figures, which the browser
 * words in the person's language (`fileProblemText` in status-words.ts) and a failed document keeps.
 */
export function problem(reason: FileProblemReason, params: Record<string, string | number> = {}): { problem: FileProblem } {
  return { problem: { reason, params } };
}

/** The problem an error carries in its details, if it is about a file. */
export function problemOf(details: Record<string, unknown> | undefined): FileProblem | null {
  const found = details?.problem;
  return typeof found === "object" && found !== null && "reason" in found ? (found as FileProblem) : null;
}
