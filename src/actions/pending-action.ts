import { DurableObject } from "cloudflare:workers";
import { failure, type RpcResult, success } from "../rpc-result.ts";
import type { ActionStatus, ActionView } from "../shapes.ts";
import type { ActionOwner, Execution, Prepared } from "./types.ts";

interface StoredAction extends Prepared {
  owner: ActionOwner;
  status: ActionStatus;
  createdAt: string;
  expiresAt: string;
  /** When a confirm claimed the write and began running it; set only while it runs. */
  runningSince?: string;
  result?: Record<string, unknown>;
  error?: { code: string; message: string };
}

/** What a confirm is told: run the write now, or how the action already ended. */
export type Claim = { run: true; kind: string; write: object; summary: string } | { run: false; view: ActionView };

export interface ClaimOptions {
  leaseMs: number;
  idempotent: boolean;
  once?: boolean;
}

/** What the confirm that ran the write reports back; `retry` means nothing was written and it may be confirmed again. */
export type Settlement = Execution | { retry: true; message: string };

// How long a settled action (confirmed, cancelled, expired, failed) is remembered, so that a
// second confirm gets the first answer and a late one learns what happened.
const RETAIN_SECONDS = 7 * 24 * 3600;

/**
 * One prepared write awaiting its owner's confirmation: a small state machine that knows no kinds
 * of write. A confirm first claims the write (`claim`), runs it with the executor of its kind in
 * the Worker, then reports the outcome (`settle`). Claims, settlements and cancels run one after
 * the other; a confirm that arrives while another runs the write waits for its outcome, so twenty
 * concurrent confirms write once and all get the same answer. A claim whose confirm never
 * reported back (the Worker was stopped) may be taken again after `leaseMs`, only for a kind whose
 * executor cannot write twice; otherwise the action is settled as failed, since the write may
 * have happened. An alarm expires the action. Failures are values (`RpcResult`), as errors lose
 * their type across RPC.
 */
export class PendingActionObject extends DurableObject<Env> {
  private queue: Promise<unknown> = Promise.resolve();
  // Confirms waiting for the one that runs the write (in memory: they share this object's life).
  private waiting: ((answer: RpcResult<Claim>) => void)[] = [];

  /** Stores a freshly prepared action and schedules its expiry. */
  async create(input: { owner: ActionOwner; prepared: Prepared; ttlSeconds: number }): Promise<RpcResult<ActionView>> {
    if (await this.ctx.storage.get("action")) return failure("conflict", "This action already exists.");
    const now = Date.now();
    const action: StoredAction = {
      kind: input.prepared.kind,
      write: input.prepared.write,
      summary: input.prepared.summary,
      preview: input.prepared.preview,
      ambiguities: input.prepared.ambiguities,
      owner: input.owner,
      status: "pending",
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + input.ttlSeconds * 1000).toISOString(),
    };
    await this.ctx.storage.put("action", action);
    await this.ctx.storage.setAlarm(now + input.ttlSeconds * 1000);
    return success(this.viewOf(action));
  }

  /** The action as its owner sees it, in any state. */
  async view(owner: ActionOwner): Promise<RpcResult<ActionView>> {
    const action = await this.load(owner);
    if (!action) return this.unknown();
    return success(this.viewOf(action));
  }

  /**
   * Claims the write for one confirm: `run` for the first (and for a retake after a stale claim
   * of an idempotent kind), the final view for every later one. A claim made `once` (a person's
   * answer that must count one time only) is refused instead of waiting or repeating the result
   * when the action is already running or confirmed.
   */
  async claim(owner: ActionOwner, options: ClaimOptions): Promise<RpcResult<Claim>> {
    const decided = await this.serially(() => this.decideClaim(owner, options));
    // Waiting happens outside the queue, which the report that ends the wait must pass through.
    return "wait" in decided ? decided.wait : decided;
  }

  private async decideClaim(
    owner: ActionOwner,
    { leaseMs, idempotent, once }: ClaimOptions,
  ): Promise<RpcResult<Claim> | { wait: Promise<RpcResult<Claim>> }> {
    const action = await this.load(owner);
    if (!action) return this.unknown();
    if (once && (action.status === "confirmed" || action.runningSince)) {
      return failure("action_not_confirmable", "This answer was already used: the action is confirmed or being confirmed.", {
        action: this.viewOf(action),
      });
    }
    if (action.status === "confirmed") return success({ run: false, view: this.viewOf(action) });
    if (action.status !== "pending") return this.notPending(action);
    if (action.ambiguities.length > 0 || action.write === null) {
      return failure(
        "action_not_confirmable",
        "This action still has open questions (see ambiguities). Ask the user to choose, then prepare it again with their choice; this one cannot be confirmed.",
      );
    }
    if (action.runningSince) {
      if (Date.now() - Date.parse(action.runningSince) < leaseMs) {
        return { wait: new Promise<RpcResult<Claim>>((resolve) => this.waiting.push(resolve)) };
      }
      if (!idempotent) {
        const settled = await this.settle(action, {
          status: "failed",
          error: {
            code: "action_stale",
            message:
              "The confirm was interrupted while the write ran, so whether it happened is unknown. Check, then prepare it again if it is still wanted.",
          },
        });
        return this.notPending(settled);
      }
    }
    await this.ctx.storage.put("action", { ...action, runningSince: new Date().toISOString() });
    return success({ run: true, kind: action.kind, write: action.write, summary: action.summary });
  }

  /** Records what running the write came to, and answers every confirm that waited for it. */
  report(owner: ActionOwner, settlement: Settlement): Promise<RpcResult<ActionView>> {
    return this.serially(async () => {
      const action = await this.load(owner);
      if (!action) return this.unknown();
      if (!action.runningSince) return success(this.viewOf(action));
      const { runningSince: _, ...rest } = action;
      let answer: RpcResult<ActionView>;
      if ("retry" in settlement) {
        await this.ctx.storage.put("action", rest);
        answer = failure("unavailable", settlement.message);
      } else if (settlement.ok) {
        answer = success(this.viewOf(await this.settle(rest, { status: "confirmed", result: settlement.result })));
      } else {
        const settled = await this.settle(rest, {
          status: "failed",
          error: { code: "action_stale", message: settlement.message },
        });
        answer = failure("action_stale", settlement.message, { action: this.viewOf(settled) });
      }
      const waiting = this.waiting.splice(0);
      const claimAnswer: RpcResult<Claim> = answer.ok ? success({ run: false, view: answer.value }) : answer;
      for (const resolve of waiting) resolve(claimAnswer);
      return answer;
    });
  }

  /**
   * Discards a pending action; cancelling twice is fine, unless `once` (a person's answer that must
   * count one time only), and cancelling a confirmed (or confirming) one is not.
   */
  cancel(owner: ActionOwner, { once = false }: { once?: boolean } = {}): Promise<RpcResult<ActionView>> {
    return this.serially(async () => {
      const action = await this.load(owner);
      if (!action) return this.unknown();
      if (action.status === "cancelled" && once) {
        return failure("action_not_confirmable", "This answer was already used: the action is cancelled.", {
          action: this.viewOf(action),
        });
      }
      if (action.status === "cancelled") return success(this.viewOf(action));
      if (action.status !== "pending") return this.notPending(action);
      if (action.runningSince) {
        return failure("action_not_confirmable", "This action is being confirmed right now and can no longer be cancelled.", {
          action: this.viewOf(action),
        });
      }
      return success(this.viewOf(await this.settle(action, { status: "cancelled" })));
    });
  }

  override async alarm(): Promise<void> {
    const action = await this.ctx.storage.get<StoredAction>("action");
    if (action?.status === "pending" && !action.runningSince) {
      await this.settle(action, { status: "expired" });
      return;
    }
    if (action?.status === "pending") {
      // A confirm is running the write: look again once it has surely reported.
      await this.ctx.storage.setAlarm(Date.now() + 60_000);
      return;
    }
    await this.ctx.storage.deleteAll();
  }

  /** Runs `task` after every earlier claim, report or cancel on this action has finished. */
  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async settle(action: StoredAction, change: Partial<StoredAction>): Promise<StoredAction> {
    const next: StoredAction = { ...action, ...change };
    await this.ctx.storage.put("action", next);
    await this.ctx.storage.setAlarm(Date.now() + RETAIN_SECONDS * 1000);
    return next;
  }

  /** The stored action if `owner` prepared it; a pending one past its time (and not running) counts as expired. */
  private async load(owner: ActionOwner): Promise<StoredAction | null> {
    const action = await this.ctx.storage.get<StoredAction>("action");
    // Another person's action is indistinguishable from one that does not exist.
    if (!action || action.owner.tenantId !== owner.tenantId || action.owner.userId !== owner.userId) return null;
    if (action.status === "pending" && !action.runningSince && Date.now() >= Date.parse(action.expiresAt)) {
      return this.settle(action, { status: "expired" });
    }
    return action;
  }

  private unknown() {
    return failure("action_unknown", "No such action. Check the action_id, or prepare the write again.");
  }

  private notPending(action: StoredAction) {
    const view = this.viewOf(action);
    switch (action.status) {
      case "expired":
        return failure(
          "action_expired",
          `This action expired at ${action.expiresAt} without being confirmed. Prepare it again.`,
          {
            action: view,
          },
        );
      case "cancelled":
        return failure("action_not_confirmable", "This action was cancelled. Prepare it again if it is still wanted.", {
          action: view,
        });
      case "confirmed":
        return failure("action_not_confirmable", "This action is already confirmed and cannot be cancelled.", { action: view });
      default:
        return failure("action_stale", action.error?.message ?? "This action was refused.", { action: view });
    }
  }

  private viewOf(action: StoredAction): ActionView {
    return {
      action_id: this.ctx.id.toString(),
      kind: action.kind,
      status: action.status,
      summary: action.summary,
      preview: action.preview,
      ambiguities: action.ambiguities,
      created_at: action.createdAt,
      expires_at: action.expiresAt,
      ...(action.result ? { result: action.result } : {}),
      ...(action.error ? { error: action.error } : {}),
    };
  }
}
