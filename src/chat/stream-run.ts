import { AppError } from "../errors.ts";
import { log } from "../log.ts";
import { SSE_DONE, sseEvent } from "./sse.ts";
import { BEAT_MS, type ChatStream, type ReadResult, type StreamOwner } from "./stream-log.ts";

/** Where each chat's stream log lives (the `ChatStream` namespace), for the caller's workshop. */
export interface ChatStreams {
  objects: DurableObjectNamespace<ChatStream>;
  tenantId: string;
}

export type StreamStub = DurableObjectStub<ChatStream>;

/** The stream log of one chat of the workshop: its object is named by the workshop's and the chat's ids together. */
export function streamOf(streams: ChatStreams, chatId: string): StreamStub {
  return streams.objects.get(streams.objects.idFromName(JSON.stringify([streams.tenantId, chatId])));
}

const ATTEMPTS = 6;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A call to the chat's stream log, made again when it breaks (the object was evicted, reset or
 * moved, and its next instance answers from storage), backing off for about a second in all. Every
 * call that goes through here may be made twice.
 */
export async function again<T>(call: () => Promise<T>): Promise<T> {
  let delay = 25;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= ATTEMPTS) {
        throw new AppError("unavailable", "The chat's reply log cannot be reached right now; try again in a moment.", {
          cause: error,
        });
      }
      await sleep(delay);
      delay *= 2;
    }
  }
}

/** What a run's log tells the Worker making the reply. */
interface RunLogEvents {
  /** The person asked for a stop (the log's answer to a call). */
  onStop: () => void;
  /** The run is over for the log (stopped and settled, or taken for gone): stop making it. */
  onRejected: () => void;
  requestId: string;
}

// Chunks sent in one call at most; more wait for the next call.
const MAX_BATCH = 200;

/**
 * The writing end of a run's log, in the Worker running the model: each chunk is numbered as it is
 * made and sent on without waiting, the chunks made while a call is on its way going together in
 * the next, so the reply's own stream is never held up. A call that breaks is made again with the
 * same numbers, which the log keeps once.
 */
export class RunLog {
  #next = 0;
  #sent = 0;
  #queue: string[] = [];
  #flushing: Promise<void> | null = null;
  #broken = false;

  readonly #stub: StreamStub;
  readonly #runId: string;
  readonly #events: RunLogEvents;

  constructor(stub: StreamStub, runId: string, events: RunLogEvents) {
    this.#stub = stub;
    this.#runId = runId;
    this.#events = events;
  }

  /** Logs a chunk (its JSON), returning its number in the run. */
  push(json: string): number {
    const seq = this.#next++;
    if (this.#broken) return seq;
    this.#queue.push(json);
    this.#flushing ??= this.#flush();
    return seq;
  }

  /** Resolves once every chunk pushed so far is logged; `false` if the log could not take them all. */
  async drain(): Promise<boolean> {
    while (this.#flushing) await this.#flushing;
    return !this.#broken;
  }

  async #flush(): Promise<void> {
    try {
      while (this.#queue.length > 0 && !this.#broken) {
        const batch = this.#queue.splice(0, MAX_BATCH);
        const from = this.#sent;
        const answer = await again(() => this.#stub.append(this.#runId, from, batch));
        this.#sent += batch.length;
        if (!answer.accepted) {
          this.#broken = true;
          this.#queue = [];
          this.#events.onRejected();
        } else if (answer.stop) {
          this.#events.onStop();
        }
      }
    } catch (error) {
      // The reply goes on to the browser that asked and into the history; it just cannot be resumed.
      this.#broken = true;
      this.#queue = [];
      log("warn", "chat_stream_log_failed", { request_id: this.#events.requestId, error });
    } finally {
      this.#flushing = null;
    }
  }
}

/**
 * Asks the log every `BEAT_MS` whether the person stopped the run (which also tells it the Worker
 * is alive), until `done` settles; calls `onStop` at once when they did. A broken call is asked
 * again after a moment, so a stop reaches the model whichever isolate received it.
 */
export async function watchForStop(stub: StreamStub, runId: string, onStop: () => void, done: Promise<unknown>): Promise<void> {
  let over = false;
  void done.finally(() => {
    over = true;
  });
  while (!over) {
    try {
      const { stop } = await stub.watch(runId, BEAT_MS);
      if (over) return;
      if (stop) return onStop();
    } catch {
      if (!over) await sleep(250);
    }
  }
}

// How long one read waits for a chunk before the relay writes a keep-alive comment.
const FOLLOW_WAIT_MS = 15_000;
const encoder = new TextEncoder();
const KEEP_ALIVE = encoder.encode(": waiting\n\n");

/**
 * A reader's stream of run's chunks after `after`, as Server-Sent Events numbered by chunk, then
 * following live until the run is over; `null` when no reply is running (a `fresh` reader is told
 * so once the reply has ended, since the history holds it). A run left behind by its Worker is
 * given to `settle` (which stores what it said) before its chunks are sent, also when it is left
 * behind while the reader follows it. A read that breaks (the object was evicted) is made again
 * from the last chunk sent, so nothing is lost or sent twice.
 */
export async function followRun(
  stub: StreamStub,
  owner: StreamOwner,
  { after, fresh, settle }: { after: number; fresh: boolean; settle: (found: ReadResult) => Promise<void> },
): Promise<ReadableStream<Uint8Array> | null> {
  const first = await again(() => stub.read({ owner, after, fresh, waitMs: 0 }));
  if (first.state === "none") return null;
  if (first.state === "abandoned") await settle(first);
  let settled = first.state === "abandoned";
  let last = after;
  let pending: ReadResult | null = first;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const found = pending ?? (await again(() => stub.read({ owner, after: last, fresh: false, waitMs: FOLLOW_WAIT_MS })));
      pending = null;
      // Its Worker went away while this reader followed: stored before the reader sees the end, so
      // the history read next holds what it saw.
      if (found.state === "abandoned" && !settled) {
        settled = true;
        await settle(found);
      }
      if (found.state === "none") {
        controller.enqueue(SSE_DONE);
        return controller.close();
      }
      for (const chunk of found.chunks) {
        controller.enqueue(sseEvent(chunk.seq, chunk.body));
        last = chunk.seq;
      }
      if (found.complete) {
        controller.enqueue(SSE_DONE);
        return controller.close();
      }
      // Every pull enqueues something, or the stream would wait for a read that is never asked for.
      if (found.chunks.length === 0) controller.enqueue(KEEP_ALIVE);
    },
  });
}
