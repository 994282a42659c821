import { DurableObject } from "cloudflare:workers";

/** Whose chat a reply runs in: every call names it, and a run answers only its own owner. */
export interface StreamOwner {
  tenantId: string;
  userId: string;
}

/** The turn a run answers: the person's message and the id of the reply being made to it. */
export interface RunTurn {
  messageId: string;
  replyId: string;
}

/** How a run ended: it finished, the person stopped it, it failed, or its Worker went away mid-reply. */
export type RunOutcome = "finished" | "stopped" | "failed" | "interrupted";

/** What `begin` finds: the run started, another (or this same) one still running, or one left to settle. */
export type BeginResult =
  | { kind: "started" }
  | { kind: "running"; runId: string; turn: RunTurn }
  | { kind: "abandoned"; runId: string; turn: RunTurn }
  /** This very reply ran to its end a moment ago and was stored: the stored one is the answer. */
  | { kind: "answered" };

/** One logged chunk of the UI message stream, as JSON, under its number in the run. */
export interface LoggedChunk {
  seq: number;
  body: string;
}

/** What a reader gets: the chunks after the one it asked from, and whether any more will come. */
export interface ReadResult {
  state: "none" | "running" | "abandoned" | "ended";
  runId?: string;
  turn?: RunTurn;
  chunks: LoggedChunk[];
  /** No chunk after these will ever come: the run is over and everything it logged has been read. */
  complete: boolean;
}

/** What `stop` did: nothing was running, a stop was asked of the running reply's Worker, or the run was found left behind. */
export type StopResult = { stopped: false } | { stopped: true; runId: string; turn: RunTurn; abandoned: boolean };

interface RunRow extends Record<string, SqlStorageValue> {
  run_id: string;
  message_id: string;
  reply_id: string;
  tenant_id: string;
  user_id: string;
  state: "running" | "abandoned" | "ended";
  stop_requested: number;
  beat_at: number;
  ended_at: number | null;
  outcome: string | null;
  saved: number;
  next_seq: number;
}

/**
 * A run whose Worker has not been heard from for this long (no chunk, no watch) is taken for gone:
 * its Worker stopped (a crash, a restart, a deploy) and will never end it. It watches every
 * `BEAT_MS`, so this is six missed beats.
 */
export const ABANDON_MS = 30_000;
/** How often the running Worker asks whether it was stopped, which also says it is alive. */
export const BEAT_MS = 5_000;
/**
 * A run this object has not heard from since it started (it was evicted, or its whole process
 * restarted: `npm run dev` stopped and started) is taken for gone sooner: a live Worker calls
 * `watch` again within moments of losing its call, so this much quiet means none is left.
 */
export const QUIET_AFTER_RESTART_MS = BEAT_MS * 2;
/** An ended run's chunks stay this long, for readers still catching up with its last ones. */
const ENDED_RETAIN_MS = 60_000;
/** A run left behind waits this long for a Worker to store what it said; then it is forgotten. */
const ABANDONED_RETAIN_MS = 24 * 3600_000;
/** How long after a run starts its object may still hold anything of it (the workshop remembers it that long). */
export const STREAM_OBJECT_LIFETIME_MS = ABANDONED_RETAIN_MS + 3600_000;
/** The most chunks one read returns; a reader far behind asks again. */
const READ_LIMIT = 500;

const CLOSING_CHUNKS = [
  JSON.stringify({ type: "message-metadata", messageMetadata: { ended: "interrupted" } }),
  JSON.stringify({ type: "finish", finishReason: "interrupted" }),
];

/**
 * The stream log of the reply running in one chat (one object per chat, named from its workshop
 * and chat id). The Worker running the model appends each UI message stream chunk as it is made;
 * readers (a reload, a second tab, a dropped connection coming back) read them from any point and
 * then wait for the next ones; a stop request reaches the running Worker through `watch`. It holds
 * what a reply said only while it runs and shortly after; it never reads or writes D1 (the Worker
 * stores the reply in the workshop's history). One reply runs at a time per chat.
 */
export class ChatStream extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private readers = new Set<() => void>();
  private watchers = new Set<() => void>();
  // Whether the running reply's Worker has called this instance (an evicted or restarted object has not).
  private heard = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS run (
      one INTEGER PRIMARY KEY CHECK (one = 1), run_id TEXT NOT NULL, message_id TEXT NOT NULL,
      reply_id TEXT NOT NULL, tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, state TEXT NOT NULL,
      stop_requested INTEGER NOT NULL DEFAULT 0, beat_at INTEGER NOT NULL, ended_at INTEGER,
      outcome TEXT, saved INTEGER NOT NULL DEFAULT 0, next_seq INTEGER NOT NULL DEFAULT 0)`);
    this.sql.exec("CREATE TABLE IF NOT EXISTS chunks (seq INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  }

  /**
   * Starts run `runId` for `turn` unless a reply is already running (or was left behind and must be
   * settled first). Asked again with the same `runId` (a retried call), it answers `started` again.
   */
  async begin(input: { owner: StreamOwner; runId: string; turn: RunTurn }): Promise<BeginResult> {
    let run = this.current();
    if (run?.state === "running" && run.run_id === input.runId) return { kind: "started" };
    if (run?.state === "running" && this.gone(run)) run = await this.abandon(run);
    if (run && run.state !== "ended") {
      const turn = { messageId: run.message_id, replyId: run.reply_id };
      return run.state === "abandoned"
        ? { kind: "abandoned", runId: run.run_id, turn }
        : { kind: "running", runId: run.run_id, turn };
    }
    if (run?.reply_id === input.turn.replyId && run.saved === 1 && sameOwner(run, input.owner)) return { kind: "answered" };
    const now = Date.now();
    this.sql.exec("DELETE FROM chunks");
    this.sql.exec(
      `INSERT OR REPLACE INTO run (one, run_id, message_id, reply_id, tenant_id, user_id, state, beat_at)
       VALUES (1, ?, ?, ?, ?, ?, 'running', ?)`,
      input.runId,
      input.turn.messageId,
      input.turn.replyId,
      input.owner.tenantId,
      input.owner.userId,
      now,
    );
    this.heard = true;
    await this.ctx.storage.setAlarm(now + ABANDON_MS);
    return { kind: "started" };
  }

  /**
   * Logs chunks `from`, `from + 1`, … of run `runId`. A chunk logged already (a retried call) is
   * kept once. `accepted: false` tells a Worker whose run is over (stopped and settled, or taken
   * for gone) to stop; `stop` that the person asked for a stop.
   */
  async append(runId: string, from: number, bodies: string[]): Promise<{ accepted: boolean; stop: boolean }> {
    const run = this.current();
    if (run?.run_id !== runId || run.state !== "running" || from > run.next_seq) return { accepted: false, stop: true };
    for (const [index, body] of bodies.entries()) {
      this.sql.exec("INSERT OR IGNORE INTO chunks (seq, body) VALUES (?, ?)", from + index, body);
    }
    this.sql.exec("UPDATE run SET next_seq = MAX(next_seq, ?), beat_at = ?", from + bodies.length, Date.now());
    this.heard = true;
    wake(this.readers);
    return { accepted: true, stop: run.stop_requested === 1 };
  }

  /**
   * The running Worker's question, asked every `BEAT_MS`: was a stop asked for? It answers at once
   * when one is (or the run is over), otherwise after `waitMs`. Each call says the Worker is alive.
   */
  async watch(runId: string, waitMs: number): Promise<{ stop: boolean }> {
    const asked = () => {
      const run = this.current();
      return run?.run_id !== runId || run.state !== "running" || run.stop_requested === 1;
    };
    if (asked()) return { stop: true };
    this.sql.exec("UPDATE run SET beat_at = ? WHERE run_id = ?", Date.now(), runId);
    this.heard = true;
    await waitFor(this.watchers, Math.min(waitMs, BEAT_MS * 2));
    return { stop: asked() };
  }

  /**
   * The chunks after `after` (-1: from the first), waiting up to `waitMs` for one when there is
   * none yet. `fresh`: a reader that has nothing yet, who is told `none` once the run has ended
   * (its reply is in the history); a reader continuing (`Last-Event-ID`) still gets an ended run's
   * last chunks. A run whose Worker has gone quiet too long is ended as `interrupted` on the way.
   */
  async read(input: { owner: StreamOwner; after: number; fresh: boolean; waitMs: number }): Promise<ReadResult> {
    const none: ReadResult = { state: "none", chunks: [], complete: true };
    let run = this.current();
    if (!run || !sameOwner(run, input.owner)) return none;
    if (run.state === "running" && this.gone(run)) run = await this.abandon(run);
    if (input.fresh && run.state === "ended") return none;
    let chunks = this.chunksAfter(input.after);
    if (chunks.length === 0 && run.state === "running" && input.waitMs > 0) {
      await waitFor(this.readers, input.waitMs);
      run = this.current();
      if (!run) return none;
      chunks = this.chunksAfter(input.after);
    }
    const last = chunks.at(-1)?.seq ?? input.after;
    return {
      state: run.state,
      runId: run.run_id,
      turn: { messageId: run.message_id, replyId: run.reply_id },
      chunks,
      complete: run.state !== "running" && last >= run.next_seq - 1,
    };
  }

  /** Every chunk run `runId` logged, for the Worker that stores a run left behind. */
  async log(runId: string): Promise<string[]> {
    if (this.current()?.run_id !== runId) return [];
    return this.sql
      .exec<{ body: string }>("SELECT body FROM chunks ORDER BY seq")
      .toArray()
      .map((row) => row.body);
  }

  /** Asks the running reply's Worker to stop (it learns within moments through `watch` or `append`). */
  async stop(owner: StreamOwner): Promise<StopResult> {
    let run = this.current();
    if (!run || !sameOwner(run, owner) || run.state === "ended") return { stopped: false };
    if (run.state === "running" && this.gone(run)) run = await this.abandon(run);
    const turn = { messageId: run.message_id, replyId: run.reply_id };
    if (run.state === "abandoned") return { stopped: true, runId: run.run_id, turn, abandoned: true };
    this.sql.exec("UPDATE run SET stop_requested = 1");
    wake(this.watchers);
    return { stopped: true, runId: run.run_id, turn, abandoned: false };
  }

  /**
   * Ends run `runId` once its reply is stored (`saved`) or known to have said nothing. Readers get
   * its last chunks and then the end; the chunks are forgotten a minute later.
   */
  async end(runId: string, { outcome, saved }: { outcome: RunOutcome; saved: boolean }): Promise<void> {
    const run = this.current();
    if (run?.run_id !== runId || run.state === "ended") return;
    const now = Date.now();
    this.sql.exec("UPDATE run SET state = 'ended', ended_at = ?, outcome = ?, saved = ?", now, outcome, saved ? 1 : 0);
    wake(this.readers);
    wake(this.watchers);
    await this.ctx.storage.setAlarm(now + ENDED_RETAIN_MS);
  }

  /** Empties this object for good (its chat or its workshop was deleted); another workshop's is left alone. */
  async purge(tenantId: string): Promise<void> {
    const run = this.current();
    if (run && run.tenant_id !== tenantId) return;
    wake(this.readers);
    wake(this.watchers);
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  override async alarm(): Promise<void> {
    const run = this.current();
    const now = Date.now();
    if (!run) return this.ctx.storage.deleteAll();
    if (run.state === "running") {
      if (now - run.beat_at >= ABANDON_MS) await this.abandon(run);
      else await this.ctx.storage.setAlarm(run.beat_at + ABANDON_MS);
      return;
    }
    const keep = run.state === "ended" ? ENDED_RETAIN_MS : ABANDONED_RETAIN_MS;
    const due = (run.ended_at ?? now) + keep;
    if (now >= due) await this.ctx.storage.deleteAll();
    else await this.ctx.storage.setAlarm(due);
  }

  /** Whether a running run's Worker is taken for gone: quiet too long, or not heard by this instance for a while. */
  private gone(run: RunRow): boolean {
    const quiet = Date.now() - run.beat_at;
    return quiet >= ABANDON_MS || (!this.heard && quiet >= QUIET_AFTER_RESTART_MS);
  }

  /** Ends a run whose Worker went away: its log closes as interrupted, for a Worker to store. */
  private async abandon(run: RunRow): Promise<RunRow> {
    const now = Date.now();
    for (const [index, body] of CLOSING_CHUNKS.entries()) {
      this.sql.exec("INSERT OR IGNORE INTO chunks (seq, body) VALUES (?, ?)", run.next_seq + index, body);
    }
    this.sql.exec("UPDATE run SET state = 'abandoned', ended_at = ?, next_seq = next_seq + ?", now, CLOSING_CHUNKS.length);
    wake(this.readers);
    wake(this.watchers);
    await this.ctx.storage.setAlarm(now + ABANDONED_RETAIN_MS);
    return this.current() as RunRow;
  }

  private current(): RunRow | null {
    return this.sql.exec<RunRow>("SELECT * FROM run WHERE one = 1").toArray()[0] ?? null;
  }

  private chunksAfter(after: number): LoggedChunk[] {
    return this.sql
      .exec<{ seq: number; body: string }>("SELECT seq, body FROM chunks WHERE seq > ? ORDER BY seq LIMIT ?", after, READ_LIMIT)
      .toArray()
      .map((row) => ({ seq: row.seq, body: row.body }));
  }
}

function sameOwner(run: RunRow, owner: StreamOwner): boolean {
  return run.tenant_id === owner.tenantId && run.user_id === owner.userId;
}

function wake(waiting: Set<() => void>): void {
  for (const resolve of waiting) resolve();
  waiting.clear();
}

/** Resolves when `waiting` is woken, or after `ms`. */
function waitFor(waiting: Set<() => void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      waiting.delete(done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    waiting.add(done);
  });
}
