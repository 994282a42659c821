// What a Confirm or Cancel click does: the actions route decides, the chat route records the outcome.
import { type ActionOutcome, type OutcomeText, outcomeOfAnswer, outcomeOfError, undecided } from "./action-outcome.ts";
import { ApiError, api } from "./api.ts";

/**
 * Confirms or cancels a pending action through `POST /api/actions/:id/{confirm,cancel}`, then records
 * the outcome in the chat with `POST /api/chats/:chatId/actions/:actionId`, so a reload shows it.
 * When nothing was decided (network or server failure) the outcome stays `pending`, unrecorded,
 * with the reason in `result`, so the person can try again; while another confirm is writing it,
 * `confirming`, unrecorded too. `lang` is the language the card showed its preview in.
 */
export async function decideAction(
  chatId: string,
  actionId: string,
  decision: "confirm" | "cancel",
  text: OutcomeText,
  lang: "zh" | "en",
): Promise<ActionOutcome> {
  let outcome: Omit<ActionOutcome, "recorded">;
  try {
    outcome = outcomeOfAnswer(await api.decideAction(actionId, decision, { via: "card", lang }), decision, text);
  } catch (error) {
    outcome = outcomeOfError(error, text);
  }
  if (undecided(outcome.status)) return { ...outcome, recorded: false };
  try {
    await api.recordAction(chatId, actionId, outcome.result === undefined ? { status: outcome.status } : outcome);
    return { ...outcome, recorded: true };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw error;
    return { ...outcome, recorded: false };
  }
}
