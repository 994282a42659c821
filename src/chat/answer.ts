import {
  consumeStream,
  convertToModelMessages,
  createUIMessageStream,
  isStepCount,
  streamText,
  toUIMessageStream,
  type UIMessage,
  type UIMessageChunk,
  validateUIMessages,
} from "ai";
import { log } from "../log.ts";
import { citedSource } from "../search/citation.ts";
import { SEARCH_DEFAULTS, type SearchResult, searchKnowledge } from "../search/search.ts";
import type { ChatMessageMetadata } from "../shapes.ts";
import { toolContext } from "../tools/context.ts";
import { toolsFor as registryTools } from "../tools/registry.ts";
import type { ToolContext } from "../tools/tool.ts";
import { rememberStatements } from "../workshop-objects.ts";
import type { ChatTurn } from "./chat-turn.ts";
import { confirmCardPart } from "./confirm-cards.ts";
import { searchQuery } from "./english-query.ts";
import { type ChatMessage, saveAssistantMessage, saveUserMessage } from "./history.ts";
import { chatInstructions } from "./instructions.ts";
import { modelTools } from "./model-tools.ts";
import type { Passage } from "./passages.ts";
import { afterStart, retrievedSources, sourcesPart, toolSources } from "./sources.ts";
import { SSE_DONE, sseEvent, sseResponse } from "./sse.ts";
import { type RunOutcome, STREAM_OBJECT_LIFETIME_MS } from "./stream-log.ts";
import { again, RunLog, type StreamStub, watchForStop } from "./stream-run.ts";
import { cardAsText, describeError, endedEarly, StoppedByPerson } from "./stream-transforms.ts";
import { chatTitle } from "./title.ts";
import type { TurnPlan } from "./turn-plan.ts";
import { restoreAnswers } from "./versions.ts";
import { workshopProfile } from "./workshop.ts";

/** Model steps per turn: enough for a lookup, a follow-up call and an answer, never a runaway loop. */
export const MAX_STEPS = 5;
const PASSAGES = 4;
// The model sees the latest turns only, so a long chat neither outgrows its context nor slows down.
const CONTEXT_MESSAGES = 40;
// A turn that runs this long is stopped: the tools and the model have had their chance.
export const TURN_TIMEOUT_MS = 120_000;

/** The run of this turn in the chat's stream log: where its chunks go and where a stop comes from. */
export interface TurnRun {
  stub: StreamStub;
  runId: string;
  /** The object's id, remembered with the workshop so that deleting it empties the object. */
  objectId: string;
}

/** The last `CONTEXT_MESSAGES` messages, starting at a user's so the model never sees half a turn. */
function recent(messages: ChatMessage[]): ChatMessage[] {
  let start = Math.max(0, messages.length - CONTEXT_MESSAGES);
  while (start < messages.length - 1 && messages[start]?.role !== "user") start++;
  return messages.slice(start);
}

async function retrieve(turn: ChatTurn, ctx: ToolContext, text: string): Promise<SearchResult[]> {
  const { results } = await searchKnowledge({
    ...ctx.services.search,
    request: { ...SEARCH_DEFAULTS, query: searchQuery(text), kbIds: turn.kbIds, topK: PASSAGES },
  });
  return results;
}

/**
 * Makes the answer a plan calls for and streams it: the question (or the answers it replaces) is
 * stored before the model runs, the reply when it ends, even if the browser has gone (the stream
 * is consumed to its end under `waitUntil`). Each chunk goes to the browser numbered (the SSE `id`)
 * and, with the same number, to the chat's stream log (`run`), which a reload or a dropped
 * connection resumes from and a stop request reaches the model through. The run ends in the log
 * only once the reply is stored, so a reader never finds it in neither place.
 */
export async function answerTurn(
  turn: ChatTurn,
  plan: Extract<TurnPlan, { kind: "answer" }>,
  run: TurnRun | null,
): Promise<Response> {
  const { user, requestId, chatId } = turn;
  const { db } = turn.services.chats;
  const owner = { tenantId: user.tenantId, userId: user.userId };
  const endRun = (outcome: RunOutcome, saved: boolean) =>
    run
      ? again(() => run.stub.end(run.runId, { outcome, saved })).catch((error) =>
          log("warn", "chat_stream_end_failed", { request_id: requestId, error }),
        )
      : Promise.resolve();

  const timeoutMs = turn.timeoutMs ?? TURN_TIMEOUT_MS;
  const stopping = new AbortController();
  const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), stopping.signal]);
  const stop = () => stopping.abort(new StoppedByPerson());
  let write: ((part: Parameters<ToolContext["emit"]>[0]) => void) | undefined;
  const ctx = toolContext({
    user,
    requestId,
    signal,
    config: turn.config,
    services: turn.services,
    emit: (part) => write?.(part),
  });
  const questionText = plan.question.parts.map((p) => (p.type === "text" ? p.text : "")).join("\n");
  let messages: ChatMessage[];
  let retrieved: SearchResult[];
  let profile: Awaited<ReturnType<typeof workshopProfile>>;
  try {
    // Checked before anything is stored: an unknown knowledge base is the client's mistake (404).
    retrieved = await retrieve(turn, ctx, questionText);
    profile = await workshopProfile({ directory: turn.directory.db, workshop: turn.services.chats, user });
    const remembered = run
      ? rememberStatements(turn.services.chats, {
          kind: "chat_stream",
          objectId: run.objectId,
          forgetAfter: new Date(Date.now() + STREAM_OBJECT_LIFETIME_MS),
        })
      : [];
    const also = [...plan.replacing(db), ...remembered];
    if (!plan.stored) {
      await saveUserMessage({ db, owner, chatId, title: chatTitle(questionText), message: plan.question, also });
    } else if (also.length > 0) {
      await db.batch(also);
    }
    messages = (await validateUIMessages({ messages: plan.context })) as ChatMessage[];
  } catch (error) {
    await endRun("failed", false);
    throw error;
  }
  const passages: Passage[] = retrieved.map((r) => ({ ...citedSource(r), content: r.content }));
  const metadata: ChatMessageMetadata | undefined = plan.previous > 0 ? { previous: plan.previous } : undefined;

  // The outer stream is told again of every error part the inner one wrote; those are described.
  const described = new Set<string>();
  const describe = (error: unknown) => {
    if (error instanceof Error && described.has(error.message)) return error.message;
    const message = describeError(error, requestId);
    described.add(message);
    return message;
  };
  let saved: Promise<boolean> = Promise.resolve(false);
  const chunks = createUIMessageStream({
    originalMessages: messages as UIMessage[],
    generateId: () => plan.replyId,
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
          ...(metadata ? { messageMetadata: ({ part }) => (part.type === "start" ? metadata : undefined) } : {}),
        })
          // What the reply may cite, so the browser can open a cited passage beside the conversation.
          .pipeThrough(afterStart(sourcesPart(retrievedSources(retrieved))))
          .pipeThrough(endedEarly({ signal, timeoutMs, requestId }, describe)),
      );
    },
    onError: describe,
    onEnd({ responseMessage }) {
      saved = storeReply(turn, plan, responseMessage as ChatMessage);
    },
  });

  const logged = run ? new RunLog(run.stub, run.runId, { onStop: stop, onRejected: stop, requestId }) : null;
  let count = 0;
  const numbered = chunks.pipeThrough(
    new TransformStream<UIMessageChunk, Uint8Array>({
      transform(chunk, controller) {
        const json = JSON.stringify(chunk);
        controller.enqueue(sseEvent(logged ? logged.push(json) : count++, json));
      },
      flush(controller) {
        controller.enqueue(SSE_DONE);
      },
    }),
  );
  const [forBrowser, forServer] = numbered.tee();
  const finished = (async () => {
    await consumeStream({ stream: forServer });
    await logged?.drain();
    const stored = await saved;
    await endRun(stopping.signal.aborted ? "stopped" : "finished", stored);
  })();
  turn.waitUntil(finished);
  if (run) turn.waitUntil(watchForStop(run.stub, run.runId, stop, finished));
  return sseResponse(forBrowser);
}

/** Stores the reply; a reply that said nothing is not stored, and an answer made again that said nothing gives the earlier one back. */
async function storeReply(turn: ChatTurn, plan: Extract<TurnPlan, { kind: "answer" }>, reply: ChatMessage): Promise<boolean> {
  const { db } = turn.services.chats;
  const owner = { tenantId: turn.user.tenantId, userId: turn.user.userId };
  try {
    if (reply.parts.length === 0) {
      if (plan.regenerating)
        await restoreAnswers({ db, owner, chatId: turn.chatId, messageId: plan.question.id, replyId: plan.replyId });
      return false;
    }
    await saveAssistantMessage({ db, owner, chatId: turn.chatId, message: reply, replyTo: plan.question.id });
    return true;
  } catch (error) {
    log("error", "chat_save_failed", { request_id: turn.requestId, chat_id: turn.chatId, error });
    return false;
  }
}
