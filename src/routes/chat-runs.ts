import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { followReply } from "../chat/agent.ts";
import { rateAnswer, unrateAnswer } from "../chat/feedback.ts";
import { findChat, getChat } from "../chat/history.ts";
import { settleAbandoned } from "../chat/settle.ts";
import { lastEventId } from "../chat/sse.ts";
import type { ReadResult, StopResult } from "../chat/stream-log.ts";
import { again, streamOf } from "../chat/stream-run.ts";
import { versionsOf } from "../chat/versions.ts";
import { badRequest } from "../errors.ts";
import { RateAnswerSchema } from "./chats.schema.ts";
import { validate } from "./validate.ts";

/**
 * `/api/chats/:id/...` for the reply being written and for answers: follow the running reply
 * (`GET stream`, the AI SDK's resume), stop it (`POST stop`), an answer's earlier versions, and a
 * person's rating of an answer. Mounted inside `chatHistoryRoutes`, whose bearer authentication it
 * relies on.
 */
export const chatRunRoutes = new Hono<AppEnv>();

function ownerOf(c: { var: AppEnv["Variables"] }) {
  return { tenantId: c.var.services.chats.tenantId, userId: c.var.user.userId };
}

// How long a stop waits for the reply to be stored as stopped, so the history read next holds it.
const STOP_SETTLE_MS = 3000;

chatRunRoutes.get("/:id/stream", async (c) => {
  const chatId = c.req.param("id");
  const after = lastEventId(c.req.header("Last-Event-ID"));
  if (after === null) throw badRequest("Last-Event-ID must be the number of the last event received.");
  const streams = c.var.services.chatStreams;
  const { db } = c.var.services.chats;
  const owner = ownerOf(c);
  // No reply runs in a chat the caller does not have (or no log is kept): nothing to resume.
  if (!streams || !(await findChat({ db, owner, chatId }))) return c.body(null, 204);
  const following = await followReply({
    stub: streamOf(streams, chatId),
    db,
    owner,
    chatId,
    after,
    fresh: c.req.header("Last-Event-ID") === undefined,
    requestId: c.var.requestId,
  });
  return following ?? c.body(null, 204);
});

chatRunRoutes.post("/:id/stop", async (c) => {
  const chatId = c.req.param("id");
  const { db } = c.var.services.chats;
  const owner = ownerOf(c);
  await getChat({ db, owner, chatId });
  const streams = c.var.services.chatStreams;
  if (!streams) return c.json({ chat_id: chatId, stopped: false, reply_id: null });
  const stub = streamOf(streams, chatId);
  const found = await again(async (): Promise<StopResult> => await stub.stop(owner));
  if (!found.stopped) return c.json({ chat_id: chatId, stopped: false, reply_id: null });
  if (found.abandoned) {
    await settleAbandoned({ stub, db, owner, chatId, runId: found.runId, turn: found.turn, requestId: c.var.requestId });
  } else {
    // The running Worker aborts the model and stores what was said; answered once that is done.
    const deadline = Date.now() + STOP_SETTLE_MS;
    for (let left = STOP_SETTLE_MS; left > 0; left = deadline - Date.now()) {
      const state = await again(
        async (): Promise<ReadResult> => await stub.read({ owner, after: Number.MAX_SAFE_INTEGER, fresh: false, waitMs: left }),
      );
      if (state.runId !== found.runId || state.state !== "running") break;
    }
  }
  return c.json({ chat_id: chatId, stopped: true, reply_id: found.turn.replyId });
});

chatRunRoutes.get("/:id/messages/:messageId/versions", async (c) => {
  return c.json(
    await versionsOf({
      db: c.var.services.chats.db,
      owner: ownerOf(c),
      chatId: c.req.param("id"),
      messageId: c.req.param("messageId"),
    }),
  );
});

chatRunRoutes.post("/:id/messages/:messageId/feedback", validate("json", RateAnswerSchema), async (c) => {
  const { rating, comment } = c.req.valid("json");
  const saved = await rateAnswer({
    db: c.var.services.chats.db,
    owner: ownerOf(c),
    chatId: c.req.param("id"),
    messageId: c.req.param("messageId"),
    rating,
    comment: comment || null,
  });
  return c.json(saved);
});

chatRunRoutes.delete("/:id/messages/:messageId/feedback", async (c) => {
  const chatId = c.req.param("id");
  const messageId = c.req.param("messageId");
  await unrateAnswer({ db: c.var.services.chats.db, owner: ownerOf(c), chatId, messageId });
  return c.json({ chat_id: chatId, message_id: messageId, deleted: true });
});
