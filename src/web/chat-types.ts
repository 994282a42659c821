// The shapes the chat stream carries beyond plain text: the server's own (src/shapes.ts), so the two
// cannot drift apart without a compile error.
import type { UIMessage } from "ai";
import type { ActionStatus, ChatDataParts, ChatMessageMetadata } from "../shapes.ts";

/** A chat message as the stream and history carry it; a confirm card's part id is its action id. */
export type WeftMessage = UIMessage<ChatMessageMetadata, ChatDataParts>;
export type WeftPart = WeftMessage["parts"][number];

/** What `initiate_session` and `navigate_session` return: a step of a guided consultation. */
export interface ConsultationStep {
  session_id: string;
  response: string;
  current_step: string;
  options: { id: string; description: string }[];
  is_complete: boolean;
}

/**
 * The consultation step in a tool's output (a session, the words to show and the options), or null
 * when the output is not one: any tool that answers a step gets its options as buttons.
 */
export function consultationStep(output: unknown): ConsultationStep | null {
  if (typeof output !== "object" || output === null) return null;
  const o = output as Partial<ConsultationStep>;
  if (typeof o.session_id !== "string" || typeof o.response !== "string" || !Array.isArray(o.options)) return null;
  const options = o.options.filter(
    (opt): opt is { id: string; description: string } =>
      typeof opt === "object" && opt !== null && typeof opt.id === "string" && typeof opt.description === "string",
  );
  return {
    session_id: String(o.session_id ?? ""),
    response: o.response,
    current_step: String(o.current_step ?? ""),
    options,
    is_complete: o.is_complete === true,
  };
}

/** The messages with one confirm card's status (and outcome line) replaced; every other part is kept as it is. */
export function withActionOutcome(
  messages: WeftMessage[],
  actionId: string,
  outcome: { status: ActionStatus; result?: string },
): WeftMessage[] {
  return messages.map((message) => {
    if (!message.parts.some((p) => p.type === "data-confirm-card" && p.id === actionId)) return message;
    return {
      ...message,
      parts: message.parts.map((p) =>
        p.type === "data-confirm-card" && p.id === actionId
          ? {
              ...p,
              data: { ...p.data, status: outcome.status, ...(outcome.result !== undefined ? { outcome: outcome.result } : {}) },
            }
          : p,
      ),
    };
  });
}
