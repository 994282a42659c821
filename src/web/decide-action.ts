// What a Confirm or Cancel click does: the actions route decides, the chat route records the outcome.
import { type ActionOutcome, type OutcomeText, outcomeOfAnswer, outcomeOfError } from "./action-outcome.ts";
import { ApiError, api } from "./api.ts";

/**
 * Confirms or cancels a pending action through `POST /api/actions/:id/{confirm,cancel}`, then records
 * the outcome in the chat with `POST /api/chats/:chatId/actions/:actionId`, so a reload shows it.
 * When nothing was decided (network or server failure) the outcome stays `pending`, unrecorded,
 * with the reason in `result`, so the person can try again.
 */
export async function decideAction(
  chatId: string,
  actionId: string,
  decision: "confirm" | "cancel",
  text: OutcomeText,
): Promise<ActionOutcome> {
  let outcome: Omit<ActionOutcome, "recorded">;
  try {
    outcome = outcomeOfAnswer(await api.decideAction(actionId, decision), decision, text);
  } catch (error) {
    outcome = outcomeOfError(error, text);
  }
  if (outcome.status === "pending") return { ...outcome, recorded: false };
  try {
    await api.recordAction(chatId, actionId, outcome.result === undefined ? { status: outcome.status } : outcome);
    return { ...outcome, recorded: true };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw error;
    return { ...outcome, recorded: false };
  }
}
