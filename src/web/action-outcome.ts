// What the actions route's answer to a Confirm or Cancel click means for the confirm card.
import { ApiError } from "./api-error.ts";
import type { ActionStatus } from "./chat-types.ts";

const STATUSES = new Set<ActionStatus>(["pending", "confirmed", "cancelled", "expired", "failed"]);

export interface ActionOutcome {
  status: ActionStatus;
  result?: string;
  /** False when the stored conversation could not be updated (a reload would show the card as pending). */
  recorded: boolean;
}

/** The labels a result's fields are shown with, in the UI's language, and what goes between them. */
export interface ResultFields {
  labels: ReadonlyMap<string, string>;
  separator: string;
}

/** A line for the card from the action route's answer: its message, why it failed, or what was written. */
function resultText(body: Record<string, unknown>, fields: ResultFields): string | undefined {
  if (typeof body.message === "string") return body.message;
  const error = body.error as { message?: unknown } | undefined;
  if (typeof error?.message === "string") return error.message;
  if (typeof body.result === "string") return body.result;
  if (typeof body.result !== "object" || body.result === null) return undefined;
  const entries = Object.entries(body.result as Record<string, unknown>);
  const pairs: string[] = [];
  for (const [key, value] of entries) {
    // Only the written values a person reads, under the UI's labels: internal ids, and a new
    // order's own status beside the card's badge, would only confuse.
    const label = fields.labels.get(key);
    const yuan = (value as { yuan?: unknown } | null)?.yuan;
    const shown = typeof yuan === "string" ? yuan : typeof value === "object" || value === null ? null : String(value);
    if (label !== undefined && shown !== null) pairs.push(`${label}: ${shown}`);
  }
  if (pairs.length) return pairs.join(fields.separator);
  // A tool of a workshop's external server writes fields the UI has no labels for: its own names
  // then, still without internal ids, rather than nothing.
  const raw = entries
    .filter(([key, value]) => !/(^|_)id$/.test(key) && value !== null && typeof value !== "object")
    .slice(0, 6)
    .map(([key, value]) => `${key}: ${String(value)}`);
  return raw.length ? raw.join(fields.separator) : undefined;
}

/** The outcome of a refused or failed decision; a 401 is thrown on, for the sign-in screen. */
export function outcomeOfError(error: unknown): Omit<ActionOutcome, "recorded"> {
  // A lapsed session must reach the sign-in screen, not be shown as a failed action.
  if (error instanceof ApiError && error.status === 401) throw error;
  if (!(error instanceof ApiError) || error.status >= 500 || error.status === 429) {
    // Nothing was decided (the network or the server failed): the action is still pending.
    return { status: "pending", result: error instanceof Error ? error.message : String(error) };
  }
  // A refusal may say where the action really stands (already cancelled, refused as stale, ...).
  const details = (error.body as { error?: { details?: { action?: { status?: unknown } } } } | undefined)?.error?.details;
  const known = details?.action?.status;
  if (typeof known === "string" && STATUSES.has(known as ActionStatus) && known !== "pending") {
    return { status: known as ActionStatus, result: error.message };
  }
  if (error.status === 410 || error.code.includes("expired")) return { status: "expired", result: error.message };
  return { status: "failed", result: error.message };
}

/** The outcome of a decision the actions route accepted, from its answer. */
export function outcomeOfAnswer(
  body: Record<string, unknown>,
  decision: "confirm" | "cancel",
  fields: ResultFields,
): Omit<ActionOutcome, "recorded"> {
  const status =
    typeof body.status === "string" && STATUSES.has(body.status as ActionStatus) ? (body.status as ActionStatus) : null;
  return { status: status ?? (decision === "confirm" ? "confirmed" : "cancelled"), result: resultText(body, fields) };
}
