// What a Confirm or Cancel click does: one request to the actions route, which decides.
import { type ActionOutcome, type OutcomeText, outcomeOfAnswer, outcomeOfError } from "./action-outcome.ts";
import { api } from "./api.ts";

/**
 * Confirms or cancels a pending action through `POST /api/actions/:id/{confirm,cancel}`: one click,
 * one request. The chat keeps no copy of the outcome; loading it again reads each card's status
 * from its action (`withActionStatuses`). When nothing was decided (network or server failure) the
 * outcome stays `pending`, with the reason in `result`, so the person can try again; while another
 * confirm is writing it, `confirming`. `lang` is the language the card showed its preview in.
 */
export async function decideAction(
  actionId: string,
  decision: "confirm" | "cancel",
  text: OutcomeText,
  lang: "zh" | "en",
): Promise<ActionOutcome> {
  try {
    return outcomeOfAnswer(await api.decideAction(actionId, decision, { via: "card", lang }), decision, text);
  } catch (error) {
    return outcomeOfError(error, text);
  }
}
