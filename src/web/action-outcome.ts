// What the actions route's answer to a Confirm or Cancel click means for the confirm card.

import type { ActionStatus } from "../shapes.ts";
import { ACTION_STATUSES } from "../status-words.ts";
import { ApiError } from "./api-error.ts";

const STATUSES = new Set<ActionStatus>(ACTION_STATUSES);

/** Whether a card's action is still open: nothing decided yet (pending), or a confirm is writing it right now. */
export function undecided(status: ActionStatus): boolean {
  return status === "pending" || status === "confirming";
}

/** The longest result line a card shows; a longer one (an external server's whole answer) is cut. */
export const RESULT_MAX_LENGTH = 2000;

/** `text` cut to the length a card shows with an ellipsis, never between the halves of a surrogate pair. */
function clip(text: string | undefined): string | undefined {
  if (text === undefined || text.length <= RESULT_MAX_LENGTH) return text;
  let end = RESULT_MAX_LENGTH - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

export interface ActionOutcome {
  status: ActionStatus;
  result?: string;
}

/** How a card words an outcome in the UI's language (`outcome-text.ts`). */
export interface OutcomeText {
  /** The labels a result's fields are shown with, and what goes between them. */
  labels: ReadonlyMap<string, string>;
  separator: string;
  /** What goes between a label and its value: "：" in Chinese, ": " in English. */
  colon: string;
  /** What a refusal's code means, in place of the server's message; a code not here keeps the message. */
  refusals: ReadonlyMap<string, string>;
  /** Why a click changed nothing when the action was already settled (by another click, or the clock). */
  settled: ReadonlyMap<ActionStatus, string>;
}

/** A line for the card from the action route's answer: its message, why it failed, or what was written. */
function resultText(body: Record<string, unknown>, text: OutcomeText): string | undefined {
  if (typeof body.message === "string") return body.message;
  const error = body.error as { code?: unknown; message?: unknown } | undefined;
  if (typeof error?.message === "string") return refusalText(String(error.code), error.message, text);
  if (typeof body.result === "string") return body.result;
  if (typeof body.result !== "object" || body.result === null) return undefined;
  const entries = Object.entries(body.result as Record<string, unknown>);
  const pairs: string[] = [];
  for (const [key, value] of entries) {
    // Only the written values a person reads, under the UI's labels: internal ids, and a new
    // order's own status beside the card's badge, would only confuse.
    const label = text.labels.get(key);
    const yuan = (value as { yuan?: unknown } | null)?.yuan;
    const shown = typeof yuan === "string" ? yuan : typeof value === "object" || value === null ? null : String(value);
    if (label !== undefined && shown !== null) pairs.push(`${label}${text.colon}${shown}`);
  }
  if (pairs.length) return pairs.join(text.separator);
  // A tool of a workshop's external server writes fields the UI has no labels for: its own names
  // then, still without internal ids, rather than nothing.
  const raw = entries
    .filter(([key, value]) => !/(^|_)id$/.test(key) && value !== null && typeof value !== "object")
    .slice(0, 6)
    .map(([key, value]) => `${key}${text.colon}${String(value)}`);
  return raw.length ? raw.join(text.separator) : undefined;
}

function refusalText(code: string, message: string, text: OutcomeText): string {
  return text.refusals.get(code) ?? message;
}

/** The outcome of a refused or failed decision; a 401 is thrown on, for the sign-in screen. */
export function outcomeOfError(error: unknown, text: OutcomeText): ActionOutcome {
  // A lapsed session must reach the sign-in screen, not be shown as a failed action.
  if (error instanceof ApiError && error.status === 401) throw error;
  // Nothing was decided (the network failed): the action is still pending, and the card says to try again.
  if (!(error instanceof ApiError)) return { status: "pending" };
  const result = clip(refusalText(error.code, error.message, text));
  // Nothing was decided (the server failed or is busy): the action is still pending.
  if (error.status >= 500 || error.status === 429) return { status: "pending", result };
  // Another confirm is writing it right now: not decided by this click, and not a failure.
  if (error.code === "action_in_progress") return { status: "confirming", result };
  // A refusal may say where the action really stands (already cancelled, refused as stale, ...).
  const details = (error.body as { error?: { details?: { action?: { status?: unknown } } } } | undefined)?.error?.details;
  const known = details?.action?.status;
  if (typeof known === "string" && STATUSES.has(known as ActionStatus) && !undecided(known as ActionStatus)) {
    return { status: known as ActionStatus, result: text.settled.get(known as ActionStatus) ?? clip(error.message) };
  }
  if (error.status === 410 || error.code.includes("expired")) return { status: "expired", result };
  return { status: "failed", result };
}

/** The outcome of a decision the actions route accepted, from its answer. */
export function outcomeOfAnswer(body: Record<string, unknown>, decision: "confirm" | "cancel", text: OutcomeText): ActionOutcome {
  const status =
    typeof body.status === "string" && STATUSES.has(body.status as ActionStatus) ? (body.status as ActionStatus) : null;
  return { status: status ?? (decision === "confirm" ? "confirmed" : "cancelled"), result: clip(resultText(body, text)) };
}
