import { AppError } from "../errors.ts";
import { answerTurn } from "./answer.ts";
import type { ChatTurn } from "./chat-turn.ts";
import { withActionStatuses } from "./confirm-cards.ts";
import { type ChatOwner, findChat, loadMessages } from "./history.ts";
import { replayResponse } from "./replay.ts";
import { settleAbandoned } from "./settle.ts";
import { sseResponse } from "./sse.ts";
import type { BeginResult, ReadResult, RunTurn } from "./stream-log.ts";
import { again, followRun, type StreamStub, streamOf } from "./stream-run.ts";
import { planTurn } from "./turn-plan.ts";

export { MAX_STEPS, TURN_TIMEOUT_MS } from "./answer.ts";
export type { ChatTurn } from "./chat-turn.ts";

/** 409 for a question sent while another reply of the chat runs: one reply at a time per chat. */
function replyRunning(running: RunTurn): AppError {
  return new AppError(
    "conflict",
    "A reply is still being written in this chat (perhaps in another tab). Wait for it to finish, or stop it, then send again.",
    { details: { reason: "reply_running", message_id: running.messageId, reply_id: running.replyId, retry_after_seconds: 2 } },
  );
}

/**
 * A reader's stream of the reply running in a chat, from chunk `after` on (`fresh`: a reader with
 * nothing yet, told `null` once the reply has ended and is in the history); a run its Worker left
 * behind is stored on the way. `null`: no reply is running.
 */
export async function followReply({
  stub,
  db,
  owner,
  chatId,
  after,
  fresh,
  requestId,
}: {
  stub: StreamStub;
  db: D1Database;
  owner: ChatOwner;
  chatId: string;
  after: number;
  fresh: boolean;
  requestId: string;
}): Promise<Response | null> {
  const settle = async (found: ReadResult) => {
    if (found.runId && found.turn)
      await settleAbandoned({ stub, db, owner, chatId, runId: found.runId, turn: found.turn, requestId });
  };
  const stream = await followRun(stub, owner, { after, fresh, settle });
  return stream ? sseResponse(stream) : null;
}

// A request that meets a run to settle or a reply stored a moment ago looks again, this many times at most.
const LOOKS = 3;

/**
 * Runs one chat turn and answers it as a UI message stream. The stored conversation is the
 * history (the client's copy is never read). A message id names one turn (see `planTurn`): a turn
 * already answered is told again from the history; a resend of a message whose reply is being
 * written follows that reply from its first chunk. One reply runs at a time in a chat: a question
 * sent meanwhile is refused with 409 (`reason: "reply_running"`), nothing of it stored. A reply its
 * Worker left behind (a crash, a restart) is first stored as it stood, marked interrupted. Tools
 * come from the registry and run through `runTool`; a prepared write becomes a `data-confirm-card`
 * part whose id is its action id. An error mid-stream ends it with an `error` part a person can
 * read, and what was said before it is kept.
 */
export async function chatResponse(turn: ChatTurn): Promise<Response> {
  const { user, chatId, requestId } = turn;
  const { db } = turn.services.chats;
  const owner = { tenantId: user.tenantId, userId: user.userId };
  const streams = turn.services.chatStreams;
  const stub = streams ? streamOf(streams, chatId) : null;
  for (let look = 1; ; look++) {
    const existing = await findChat({ db, owner, chatId });
    // The cards as their actions stand now, so the model is told what the person decided.
    const stored = existing ? await loadMessages({ db, chatId }) : [];
    const history = await withActionStatuses({ actions: turn.services.actions, user, messages: stored });
    const plan = await planTurn({ db, owner, chatId, history, request: turn });
    if (plan.kind === "replay") return replayResponse(plan.reply);
    if (!stub || !streams) return answerTurn(turn, plan, null);
    const runId = crypto.randomUUID();
    const runTurn = { messageId: plan.question.id, replyId: plan.replyId };
    const begun = await again(async (): Promise<BeginResult> => await stub.begin({ owner, runId, turn: runTurn }));
    if (begun.kind === "started") {
      const objectId = streams.objects.idFromName(JSON.stringify([streams.tenantId, chatId])).toString();
      return answerTurn(turn, plan, { stub, runId, objectId });
    }
    if (begun.kind === "running" && begun.turn.replyId !== plan.replyId) throw replyRunning(begun.turn);
    if (begun.kind === "running") {
      // The same message again while its reply is being written: the reply, from its first chunk.
      const following = await followReply({ stub, db, owner, chatId, after: -1, fresh: false, requestId });
      if (following) return following;
    }
    if (begun.kind === "abandoned") {
      await settleAbandoned({ stub, db, owner, chatId, runId: begun.runId, turn: begun.turn, requestId });
    }
    if (look >= LOOKS) throw replyRunning(runTurn);
  }
}
