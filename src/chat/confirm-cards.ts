import type { UIMessage } from "ai";
import { getAction } from "../actions/actions.ts";
import type { ActionService } from "../actions/service.ts";
import { AppError, conflict } from "../errors.ts";
import type { ActionStatus, ConfirmCardData, PendingAction } from "../shapes.ts";
import type { UserContext } from "../user-context.ts";
import { cardData } from "./card-data.ts";
import { type ChatOwner, getChat } from "./history.ts";

/** A pending action as the chat's confirm card part; its id is the action's, so updates replace it. */
export function confirmCardPart(action: PendingAction): { type: "data-confirm-card"; id: string; data: ConfirmCardData } {
  return { type: "data-confirm-card", id: action.action_id, data: { ...action } };
}

/**
 * The outcome to record on a card. For an action the actions domain knows, its own status wins
 * over what the client reports, so a card can never show a write as confirmed that was not; the
 * client's words are kept only when they agree. An action it does not know (another tool's, or
 * long gone) is recorded as the client reports it.
 */
export async function verifiedOutcome({
  actions,
  user,
  actionId,
  claimed,
}: {
  actions: ActionService;
  user: UserContext;
  actionId: string;
  claimed: { status: ActionStatus; result?: string | undefined };
}): Promise<{ status: ActionStatus; result?: string | undefined }> {
  try {
    const view = await getAction({ actions, user, actionId });
    if (view.status === claimed.status) return claimed;
    return { status: view.status, ...(view.error ? { result: view.error.message } : {}) };
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return claimed;
    throw error;
  }
}

/**
 * Records what became of a confirm card's action (confirmed, cancelled, ...) in the stored
 * message that holds the card, so reloading the chat shows the outcome. 404 when the owner's chat
 * has no card for that action. The update is conditional on the parts it read, so two concurrent
 * outcomes never overwrite each other silently: the loser reads again and applies its own.
 */
export async function recordCardOutcome({
  db,
  owner,
  chatId,
  actionId,
  status,
  result,
}: {
  db: D1Database;
  owner: ChatOwner;
  chatId: string;
  actionId: string;
  status: ActionStatus;
  result?: string | undefined;
}): Promise<ConfirmCardData | null> {
  await getChat({ db, owner, chatId });
  for (let attempt = 0; attempt < 3; attempt++) {
    const found = await findCard(db, chatId, actionId);
    if (!found) return null;
    const { row, parts, index, part } = found;
    const data: ConfirmCardData = { ...cardData(part.data), status, ...(result !== undefined ? { outcome: result } : {}) };
    parts[index] = { ...part, data };
    const updated = await db
      .prepare(`UPDATE chat_messages SET parts = ?3 WHERE chat_id = ?1 AND id = ?2 AND parts = ?4`)
      .bind(chatId, row.id, JSON.stringify(parts), row.parts)
      .run();
    if (updated.meta.changes === 1) return data;
  }
  throw conflict("The conversation changed while recording this outcome; try again.");
}

type CardPart = { type: "data-confirm-card"; id: string; data: ConfirmCardData };

async function findCard(db: D1Database, chatId: string, actionId: string) {
  const { results } = await db
    .prepare(
      `SELECT id, parts FROM chat_messages WHERE chat_id = ?1 AND role = 'assistant' AND instr(parts, '"data-confirm-card"') > 0`,
    )
    .bind(chatId)
    .all<{ id: string; parts: string }>();
  for (const row of results) {
    const parts = JSON.parse(row.parts) as UIMessage["parts"];
    const index = parts.findIndex((p) => p.type === "data-confirm-card" && "id" in p && p.id === actionId);
    if (index >= 0) return { row, parts, index, part: parts[index] as CardPart };
  }
  return null;
}
