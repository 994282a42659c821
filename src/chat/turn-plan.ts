import { AppError, conflict } from "../errors.ts";
import { type ChatMessage, type ChatOwner, replyIdOf } from "./history.ts";
import { answersTo, hideAnswers, replaceQuestion } from "./versions.ts";

/** What the person asked for in one request: a message, and whether it is an answer made again or an edited question. */
export interface TurnRequest {
  message: { id: string; text: string };
  /** `regenerate-message`: make the answer to this (the last) question again, keeping the earlier one. */
  regenerate?: boolean | undefined;
  /** The id of the last question, which this message replaces (an edit). */
  replaces?: string | undefined;
}

/** What a request comes to: a turn already answered (told again), or an answer to make. */
export type TurnPlan =
  | { kind: "replay"; reply: ChatMessage | null }
  | {
      kind: "answer";
      /** The question answered, stored already (`stored`) or to store with the turn. */
      question: ChatMessage;
      /** The conversation the answer follows: the history up to the question, the question last. */
      context: ChatMessage[];
      stored: boolean;
      /** The reply's id: one per question and version, so it is made and stored once. */
      replyId: string;
      /** How many earlier answers (or, for an edit, questions) the new one replaces. */
      previous: number;
      /** Written with the question (or alone): the messages the new ones take the place of. */
      replacing: (db: D1Database) => D1PreparedStatement[];
      /** A question made again, whose earlier answers make way for the new one. */
      regenerating: boolean;
    };

/** The last question of the history (the person's last message), and where it is. */
function lastQuestion(history: ChatMessage[]): { message: ChatMessage; at: number } | null {
  for (let at = history.length - 1; at >= 0; at--) {
    const message = history[at];
    if (message?.role === "user") return { message, at };
  }
  return null;
}

/**
 * Decides a turn from the stored history (current versions) and the request. A message id names
 * one turn: a message the chat holds already is not stored again, and its stored reply is told
 * again, unless it is the last question and has none yet (the server stopped before it), or its
 * answer is asked for again (`regenerate`). An edit is a new message that replaces the last
 * question, which (with its answers) stays reachable as an earlier version.
 */
export async function planTurn({
  db,
  owner,
  chatId,
  history,
  request,
}: {
  db: D1Database;
  owner: ChatOwner;
  chatId: string;
  history: ChatMessage[];
  request: TurnRequest;
}): Promise<TurnPlan> {
  const { message } = request;
  const sentAt = history.findIndex((m) => m.id === message.id);
  const resent = history[sentAt];
  if (resent && resent.role !== "user") {
    throw conflict(`'${message.id.slice(0, 100)}' names a reply in this chat, not a message of yours: send yours with a new id.`);
  }
  const last = lastQuestion(history);
  if (resent) {
    const isLast = last?.message.id === resent.id;
    if (request.regenerate && !isLast) {
      throw new AppError("conflict", "Only the answer to your last question can be made again.");
    }
    // Sent before and answered (or passed by the conversation): the turn is done, and is told again.
    if (!request.regenerate && sentAt < history.length - 1) {
      const next = history[sentAt + 1];
      return { kind: "replay", reply: next?.role === "assistant" ? next : null };
    }
    const earlier = await answersTo({ db, chatId, messageId: resent.id });
    const replyId = await replyIdOf(resent.id, earlier + 1);
    return {
      kind: "answer",
      question: resent,
      context: history.slice(0, sentAt + 1),
      stored: true,
      replyId,
      previous: earlier,
      replacing: (d) => (earlier > 0 ? [hideAnswers(d, { owner, chatId, messageId: resent.id, replyId })] : []),
      regenerating: earlier > 0,
    };
  }
  const question: ChatMessage = { id: message.id, role: "user", parts: [{ type: "text", text: message.text }] };
  if (request.replaces !== undefined) {
    const edited = last?.message;
    if (!last || edited?.id !== request.replaces) throw new AppError("conflict", "Only your last question can be edited.");
    const previous = (edited.metadata?.previous ?? 0) + 1;
    const edit: ChatMessage = { ...question, metadata: { previous } };
    return {
      kind: "answer",
      question: edit,
      context: [...history.slice(0, last.at), edit],
      stored: false,
      replyId: await replyIdOf(question.id),
      previous: 0,
      replacing: (d) => [replaceQuestion(d, { owner, chatId, oldId: edited.id, newId: question.id })],
      regenerating: false,
    };
  }
  return {
    kind: "answer",
    question,
    context: [...history, question],
    stored: false,
    replyId: await replyIdOf(question.id),
    previous: 0,
    replacing: () => [],
    regenerating: false,
  };
}
