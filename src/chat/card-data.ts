import type { UIMessage } from "ai";
import type { ConfirmCardData } from "../shapes.ts";

/** A confirm card as chats stored it before a pending action had one wire shape. */
interface EarlierCard {
  actionId: string;
  summary: string;
  preview: ConfirmCardData["preview"];
  ambiguities: ConfirmCardData["ambiguities"];
  expiresAt: string;
  status: ConfirmCardData["status"];
  result?: string;
}

function isEarlier(data: object): data is EarlierCard {
  return Object.hasOwn(data, "actionId") && !Object.hasOwn(data, "action_id");
}

/**
 * A stored confirm card's data in today's shape (the pending action's wire shape, and `outcome`
 * for the line saying what became of it). Cards stored earlier, in camelCase with the line as
 * `result`, are read as today's, so old chats still show them; the kind they did not keep is empty.
 */
export function cardData(data: unknown): ConfirmCardData {
  if (!data || typeof data !== "object" || !isEarlier(data)) return data as ConfirmCardData;
  const { actionId, summary, preview, ambiguities, expiresAt, status, result } = data;
  return {
    action_id: actionId,
    kind: "",
    status,
    summary,
    preview,
    ambiguities,
    created_at: "",
    expires_at: expiresAt,
    confirm_url: `/actions/${encodeURIComponent(actionId)}`,
    ...(result !== undefined ? { outcome: result } : {}),
  };
}

/** A stored message's parts with every confirm card in today's shape. */
export function withCurrentCards(parts: UIMessage["parts"]): UIMessage["parts"] {
  if (!parts.some((p) => p.type === "data-confirm-card")) return parts;
  return parts.map((p) => (p.type === "data-confirm-card" ? { ...p, data: cardData(p.data) } : p));
}
