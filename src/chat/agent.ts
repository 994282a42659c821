import type { LanguageModelV4 } from "@ai-sdk/provider";
import {
  APICallError,
  consumeStream,
  convertToModelMessages,
  createUIMessageStream,
  createUIMessageStreamResponse,
  isStepCount,
  streamText,
  toUIMessageStream,
  type UIMessage,
  type UIMessageChunk,
  validateUIMessages,
} from "ai";
import type { Directory } from "../auth/directory.ts";
import type { Config } from "../config.ts";
import { AppError, conflict, GENERIC_MESSAGE } from "../errors.ts";
import { log } from "../log.ts";
import { citedSource } from "../search/citation.ts";
import { SEARCH_DEFAULTS, type SearchResult, searchKnowledge } from "../search/search.ts";
import type { ConfirmCardData } from "../shapes.ts";
import { toolContext } from "../tools/context.ts";
import { toolsFor as registryTools, type Toolset } from "../tools/registry.ts";
import type { ToolContext, ToolServices } from "../tools/tool.ts";
import type { UserContext } from "../user-context.ts";
import type { WorkshopDb } from "../workshop-db.ts";
import { confirmCardPart, withActionStatuses } from "./confirm-cards.ts";
import { searchQuery } from "./english-query.ts";
import { findChat, loadMessages, replyIdOf, saveAssistantMessage, saveUserMessage } from "./history.ts";
import { chatInstructions } from "./instructions.ts";
import { modelTools } from "./model-tools.ts";
import type { Passage } from "./passages.ts";
import { replayResponse } from "./replay.ts";
import { afterStart, retrievedSources, sourcesPart, toolSources } from "./sources.ts";
import { chatTitle } from "./title.ts";
import { workshopProfile } from "./workshop.ts";

/** Model steps per turn: enough for a lookup, a follow-up call and an answer, never a runaway loop. */
export const MAX_STEPS = 5;
const PASSAGES = 4;
// The model sees the latest turns only, so a long chat neither outgrows its context nor slows down.
const CONTEXT_MESSAGES = 40;
// A turn that runs this long is stopped: the tools and the model have had their chance.
export const TURN_TIMEOUT_MS = 120_000;

/** One turn of a chat: who asks, in which chat, what they said, and where to look. */
export interface ChatTurn {
  config: Config;
  /** The services wired for the caller's workshop. */
  services: ToolServices & { chats: WorkshopDb };
  /** Where the caller's and their workshop's names are read. */
  directory: Pick<Directory, "db">;
  waitUntil: (promise: Promise<unknown>) => void;
  user: UserContext;
  requestId: string;
  chatId: string;
  message: { id: string; text: string };
  kbIds?: string[] | undefined;
  model: (timeZone: string) => LanguageModelV4;
  /** The tools offered; the registry's for this caller unless a caller (a test) adds its own. */
  toolsFor?: (ctx: ToolContext) => Promise<Toolset>;
  /** How long the turn may run before it is stopped with an error; `TURN_TIMEOUT_MS` unless a test says less. */
  timeoutMs?: number;
}

function describeError(error: unknown, requestId: string): string {
  if (error instanceof AppError) return error.message;
  if (APICallError.isInstance(error)) {
    log("warn", "chat_model_failed", { request_id: requestId, status: error.statusCode, error });
    return `The chat model could not answer (${error.statusCode ?? "no response"}). What was said so far is kept; try again. (request id ${requestId})`;
  }
  log("error", "chat_failed", { request_id: requestId, error });
  return `${GENERIC_MESSAGE} (request id ${requestId})`;
}

// A confirm card reaches the model as a line of text, so it knows what the user decided.
function cardAsText(part: { type: string; id?: string; data: unknown }) {
  if (part.type !== "data-confirm-card") return undefined;
  const card = part.data as ConfirmCardData;
  const outcome = card.outcome ? `: ${card.outcome}` : "";
  return { type: "text" as const, text: `[confirm card ${card.action_id}: ${card.summary} (status: ${card.status}${outcome})]` };
}

/**
 * A turn stopped by its time limit ends with an `error` part a person can read (and the UI shows
 * as an error), not a bare `abort`, which clients take for the user's own stop button.
 */
function timeoutAsError(
  turn: { signal: AbortSignal; timeoutMs: number; requestId: string },
  describe: (error: unknown) => string,
) {
  const { signal, timeoutMs, requestId } = turn;
  return new TransformStream<UIMessageChunk, UIMessageChunk>({
    transform(chunk, controller) {
      const timedOut = chunk.type === "abort" && signal.reason instanceof Error && signal.reason.name === "TimeoutError";
      if (!timedOut) return controller.enqueue(chunk);
      log("warn", "chat_turn_timed_out", { request_id: requestId, timeout_ms: timeoutMs });
      const stopped = new AppError(
        "upstream_timeout",
        `This answer took longer than ${timeoutMs / 1000} s and was stopped. What was said so far is kept; try again.`,
      );
      controller.enqueue({ type: "error", errorText: describe(stopped) });
    },
  });
}

/** The last `CONTEXT_MESSAGES` messages, starting at a user's so the model never sees half a turn. */
function recent(messages: UIMessage[]): UIMessage[] {
  let start = Math.max(0, messages.length - CONTEXT_MESSAGES);
  while (start < messages.length - 1 && messages[start]?.role !== "user") start++;
  return messages.slice(start);
}

async function retrieve(turn: ChatTurn, ctx: ToolContext): Promise<SearchResult[]> {
  const { results } = await searchKnowledge({
    ...ctx.services.search,
    request: { ...SEARCH_DEFAULTS, query: searchQuery(turn.message.text), kbIds: turn.kbIds, topK: PASSAGES },
  });
  return results;
}

/**
 * Runs one chat turn and answers it as a UI message stream. The stored conversation is the
 * history (the client's copy is never read); the user's message is stored before the model runs
 * and the reply when it ends, even if the browser has gone (the stream is consumed to its end
 * under `waitUntil`). A message id names one turn: a message the chat already holds is not stored
 * again, and its reply is replayed if there is one, or made now if there is none (the server
 * stopped before it); the reply's id is the question's own (`replyIdOf`), so it is stored once.
 * Tools come from the registry and run through `runTool`; a prepared write becomes a
 * `data-confirm-card` part whose id is its action id. An error mid-stream ends it with an `error`
 * part a person can read, and what was said before it is kept.
 */
export async function chatResponse(turn: ChatTurn): Promise<Response> {
  const { user, requestId, chatId } = turn;
  const { db } = turn.services.chats;
  const owner = { tenantId: user.tenantId, userId: user.userId };
  const existing = await findChat({ db, owner, chatId });
  // The cards as their actions stand now, so the model is told what the person decided.
  const stored = existing ? await loadMessages({ db, chatId }) : [];
  const history = await withActionStatuses({ actions: turn.services.actions, user, messages: stored });
  const sentAt = history.findIndex((m) => m.id === turn.message.id);
  const resent = history[sentAt];
  if (resent && resent.role !== "user") {
    throw conflict(
      `'${turn.message.id.slice(0, 100)}' names a reply in this chat, not a message of yours: send yours with a new id.`,
    );
  }
  // Sent before and answered (or passed by the conversation): the turn is done, and is told again.
  if (resent && sentAt < history.length - 1) {
    const next = history[sentAt + 1];
    return replayResponse(next?.role === "assistant" ? next : null);
  }
  const userMessage: UIMessage = resent ?? {
    id: turn.message.id,
    role: "user",
    parts: [{ type: "text", text: turn.message.text }],
  };
  const messages = await validateUIMessages({ messages: resent ? history : [...history, userMessage] });
  const replyId = await replyIdOf(userMessage.id);

  const timeoutMs = turn.timeoutMs ?? TURN_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let write: ((part: Parameters<ToolContext["emit"]>[0]) => void) | undefined;
  const ctx = toolContext({
    user,
    requestId,
    signal,
    config: turn.config,
    services: turn.services,
    emit: (part) => write?.(part),
  });
  // Checked before anything is stored: an unknown knowledge base is the client's mistake (404).
  const retrieved = await retrieve(turn, ctx);
  const passages: Passage[] = retrieved.map((r) => ({ ...citedSource(r), content: r.content }));
  const profile = await workshopProfile({ directory: turn.directory.db, workshop: turn.services.chats, user });
  if (!resent) await saveUserMessage({ db, owner, chatId, title: chatTitle(turn.message.text), message: userMessage });

  // The outer stream is told again of every error part the inner one wrote; those are described.
  const described = new Set<string>();
  const describe = (error: unknown) => {
    if (error instanceof Error && described.has(error.message)) return error.message;
    const message = describeError(error, requestId);
    described.add(message);
    return message;
  };
  const stream = createUIMessageStream({
    originalMessages: messages,
    generateId: () => replyId,
    async execute({ writer }) {
      write = (part) => writer.write(part);
      const { tools, notes } = await (turn.toolsFor ?? registryTools)(ctx);
      const result = streamText({
        model: turn.model(profile.timeZone),
        instructions: chatInstructions({ profile, user, passages, notes, now: new Date() }),
        messages: await convertToModelMessages(recent(messages), {
          convertDataPart: cardAsText,
          ignoreIncompleteToolCalls: true,
        }),
        tools: modelTools({
          tools,
          ctx,
          onPending: (action) => writer.write(confirmCardPart(action)),
          onResult: (_name, output) => {
            const found = sourcesPart(toolSources(output));
            if (found) writer.write(found);
          },
          onForm: (toolCallId, form) => writer.write({ type: "data-tool-form", id: `form-${toolCallId}`, data: form }),
        }),
        stopWhen: isStepCount(MAX_STEPS),
        abortSignal: signal,
      });
      writer.merge(
        toUIMessageStream({
          stream: result.stream,
          onError: describe,
          redactToolErrors: false,
        })
          // What the reply may cite, so the browser can open a cited passage beside the conversation.
          .pipeThrough(afterStart(sourcesPart(retrievedSources(retrieved))))
          .pipeThrough(timeoutAsError({ signal, timeoutMs, requestId }, describe)),
      );
    },
    onError: describe,
    async onEnd({ responseMessage }) {
      if (responseMessage.parts.length === 0) return;
      try {
        await saveAssistantMessage({ db, owner, chatId, message: responseMessage });
      } catch (error) {
        log("error", "chat_save_failed", { request_id: requestId, chat_id: chatId, error });
      }
    },
  });
  return createUIMessageStreamResponse({
    stream,
    consumeSseStream: ({ stream: copy }) => turn.waitUntil(consumeStream({ stream: copy })),
  });
}
