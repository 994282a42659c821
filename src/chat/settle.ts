import { readUIMessageStream, type UIMessageChunk } from "ai";
import { log } from "../log.ts";
import { type ChatMessage, type ChatOwner, saveAssistantMessage } from "./history.ts";
import type { RunTurn } from "./stream-log.ts";
import { again, type StreamStub } from "./stream-run.ts";
import { restoreAnswers } from "./versions.ts";

/** The reply a run's logged chunks make, as a browser following them built it. */
export async function replyFromChunks(bodies: string[], replyId: string): Promise<ChatMessage> {
  const chunks = bodies.map((body) => JSON.parse(body) as UIMessageChunk);
  let reply: ChatMessage = { id: replyId, role: "assistant", parts: [] };
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  for await (const message of readUIMessageStream<ChatMessage>({ stream })) reply = message;
  return { ...reply, id: replyId };
}

/**
 * Stores what a run left behind by its Worker said (a crash, a restart, a deploy mid-reply): its
 * logged chunks, which end with the reply marked `interrupted`, become the reply in the history,
 * as whoever followed it saw it; then the run ends in the log. A run that said nothing gives an
 * answer made again its earlier one back. Storing is idempotent, so two requests settling the same
 * run store it once.
 */
export async function settleAbandoned({
  stub,
  db,
  owner,
  chatId,
  runId,
  turn,
  requestId,
}: {
  stub: StreamStub;
  db: D1Database;
  owner: ChatOwner;
  chatId: string;
  runId: string;
  turn: RunTurn;
  requestId: string;
}): Promise<void> {
  const reply = await replyFromChunks(await again(() => stub.log(runId)), turn.replyId);
  const said = reply.parts.length > 0;
  if (said) {
    await saveAssistantMessage({ db, owner, chatId, message: reply, replyTo: turn.messageId });
  } else {
    await restoreAnswers({ db, owner, chatId, messageId: turn.messageId, replyId: turn.replyId });
  }
  await again(() => stub.end(runId, { outcome: "interrupted", saved: said }));
  log("warn", "chat_reply_interrupted", { request_id: requestId, chat_id: chatId, run_id: runId, stored: said });
}
