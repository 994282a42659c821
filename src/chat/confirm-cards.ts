import type { UIMessage } from "ai";
import { getAction } from "../actions/actions.ts";
import type { ActionService } from "../actions/service.ts";
import { AppError } from "../errors.ts";
import type { ActionStatus, ConfirmCardData, PendingAction } from "../shapes.ts";
import type { UserContext } from "../user-context.ts";
import { cardData } from "./card-data.ts";

/** A pending action as the chat's confirm card part; its id is the action's, so updates replace it. */
export function confirmCardPart(action: PendingAction): { type: "data-confirm-card"; id: string; data: ConfirmCardData } {
  return { type: "data-confirm-card", id: action.action_id, data: { ...action } };
}

type CardPart = { type: "data-confirm-card"; id: string; data: ConfirmCardData };

function isCard(part: UIMessage["parts"][number]): part is CardPart {
  return part.type === "data-confirm-card" && "id" in part && typeof part.id === "string";
}

/**
 * The messages with each confirm card's status as the pending action holds it now (pending,
 * confirming, confirmed, cancelled, expired, failed), so a chat loaded again, its export and the
 * model's next turn all show what really became of a write, whichever face decided it (the card,
 * the confirm page, an agent). The stored card is the copy made when the write was prepared: the
 * browser posts nothing back. A card whose action is gone (past its time, or another tool's) keeps
 * its stored state, read as expired once its time has passed.
 */
export async function withActionStatuses({
  actions,
  user,
  messages,
  now = new Date(),
}: {
  actions: ActionService;
  user: UserContext;
  messages: UIMessage[];
  now?: Date;
}): Promise<UIMessage[]> {
  const ids = [...new Set(messages.flatMap((m) => m.parts.filter(isCard).map((p) => p.id)))];
  if (ids.length === 0) return messages;
  const current = new Map<string, ActionStatus>();
  await Promise.all(
    ids.map(async (actionId) => {
      try {
        current.set(actionId, (await getAction({ actions, user, actionId })).status);
      } catch (error) {
        if (!(error instanceof AppError && error.status === 404)) throw error;
      }
    }),
  );
  const statusOf = (card: ConfirmCardData, id: string): ActionStatus => {
    const known = current.get(id);
    if (known) return known;
    const open = card.status === "pending" || card.status === "confirming";
    return open && Date.parse(card.expires_at) < now.getTime() ? "expired" : card.status;
  };
  return messages.map((message) => ({
    ...message,
    parts: message.parts.map((part) => {
      if (!isCard(part)) return part;
      const data = cardData(part.data);
      const status = statusOf(data, part.id);
      if (status === data.status) return { ...part, data };
      // A line recorded for another status would say the wrong thing: the status alone is said.
      const changed: ConfirmCardData = { ...data, status };
      delete changed.outcome;
      return { ...part, data: changed };
    }),
  }));
}
