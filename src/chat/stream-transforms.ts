import { APICallError, type UIMessageChunk } from "ai";
import { AppError, GENERIC_MESSAGE } from "../errors.ts";
import { log } from "../log.ts";
import type { ChatMessageMetadata, ConfirmCardData } from "../shapes.ts";

/** What a person reads when a turn fails: an `AppError`'s own words, a model's failure, or the generic line with the request id. */
export function describeError(error: unknown, requestId: string): string {
  if (error instanceof AppError) return error.message;
  if (APICallError.isInstance(error)) {
    log("warn", "chat_model_failed", { request_id: requestId, status: error.statusCode, error });
    return `The chat model could not answer (${error.statusCode ?? "no response"}). What was said so far is kept; try again. (request id ${requestId})`;
  }
  log("error", "chat_failed", { request_id: requestId, error });
  return `${GENERIC_MESSAGE} (request id ${requestId})`;
}

// A confirm card reaches the model as a line of text, so it knows what the user decided.
export function cardAsText(part: { type: string; id?: string; data: unknown }) {
  if (part.type !== "data-confirm-card") return undefined;
  const card = part.data as ConfirmCardData;
  const outcome = card.outcome ? `: ${card.outcome}` : "";
  return { type: "text" as const, text: `[confirm card ${card.action_id}: ${card.summary} (status: ${card.status}${outcome})]` };
}

/** Why a person's stop aborted the turn: the reason the stop signal carries. */
export class StoppedByPerson extends Error {
  constructor() {
    super("The person stopped this reply.");
    this.name = "StoppedByPerson";
  }
}

/**
 * A turn ended early says why, where the stream's bare `abort` would not: stopped by its time
 * limit, an `error` part a person can read (not an `abort`, which clients take for the user's own
 * stop button); stopped by the person, the reply's metadata says `ended: "stopped"` (streamed, and
 * so stored with the reply) and the stream finishes.
 */
export function endedEarly(
  turn: { signal: AbortSignal; timeoutMs: number; requestId: string },
  describe: (error: unknown) => string,
): TransformStream<UIMessageChunk, UIMessageChunk> {
  const { signal, timeoutMs, requestId } = turn;
  return new TransformStream<UIMessageChunk, UIMessageChunk>({
    transform(chunk, controller) {
      if (chunk.type !== "abort") return controller.enqueue(chunk);
      const reason: unknown = signal.reason;
      if (reason instanceof StoppedByPerson) {
        const ended: ChatMessageMetadata = { ended: "stopped" };
        controller.enqueue({ type: "message-metadata", messageMetadata: ended });
        controller.enqueue({ type: "finish", finishReason: "stop" });
        return;
      }
      if (!(reason instanceof Error && reason.name === "TimeoutError")) return controller.enqueue(chunk);
      log("warn", "chat_turn_timed_out", { request_id: requestId, timeout_ms: timeoutMs });
      const stopped = new AppError(
        "upstream_timeout",
        `This answer took longer than ${timeoutMs / 1000} s and was stopped. What was said so far is kept; try again.`,
      );
      controller.enqueue({ type: "error", errorText: describe(stopped) });
    },
  });
}
