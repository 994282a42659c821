import { DurableObject } from "cloudflare:workers";
import { failure, type RpcResult, success } from "../rpc-result.ts";
import type { PendingAction, PreparedIn } from "../shapes.ts";
import type { Role } from "../user-context.ts";
import type { ActionOwner, Execution, Prepared } from "./types.ts";

type StoredStatus = Exclude<PendingAction["status"], "confirming">;

/** A confirm running the write: who (this claim's id), since when, and in which life of this object. */
interface StoredClaim {
  id: string;
  since: number;
  /** The object's instance when it was claimed: another means the object restarted since, as it does with a stopped Worker. */
  instance: string;
  leaseMs: number;
  /** Whether the kind's write is recognisable by its action id, so running it again writes nothing twice. */
  recognisable: boolean;
}

interface StoredAction extends Prepared {
  owner: ActionOwner;
  preparedIn?: PreparedIn;
  status: StoredStatus;
  createdAt: string;
  expiresAt: string;
  /** Set only while a confirm runs the write. */
  claim?: StoredClaim;
  result?: Record<string, unknown>;
  error?: { code: string; message: string };
}

/** An action as this object knows it: the wire shape but its confirm page's address, which the Worker adds. */
export type ActionState = Omit<PendingAction, "confirm_url">;

/** What a look finds: the action, the role its write needs, and the claim of a confirm running it. */
export interface Look {
  state: ActionState;
  needs: Role;
  /** `orphaned`: its confirm cannot report any more (the object restarted since) or is past its lease. */
  claim: { id: string; orphaned: boolean } | null;
}

/** What a confirm is told: run the write now (as claim `claimId`), or how the action already ended. */
export type Claim =
  | { run: true; claimId: string; kind: string; write: object; summary: string }
  | { run: false; state: ActionState };

export interface ClaimOptions {
  /** How long the claim holds before it counts as left behind. */
  leaseMs: number;
  recognisable: boolean;
  once?: boolean;
}

/** What the confirm that ran the write reports; `retry` means nothing was written and it may be confirmed again. */
export type Settlement = Execution | { retry: true };

// How long a settled action (confirmed, cancelled, expired, failed) is remembered, so that a
// second confirm gets the first answer and a late one learns what happened.
const RETAIN_SECONDS = 7 * 24 * 3600;
/** What a confirm that meets another one running the write is told to wait before asking again. */
export const IN_PROGRESS_RETRY_SECONDS = 1;

/**
 * One prepared write awaiting its owner's confirmation: a small state machine that knows no kinds
 * of write. A confirm first claims the write (`claim`), runs it with the executor of its kind in
 * the Worker, then reports the outcome (`report`). Claims, reports and cancels run one after the
 * other, and none waits for another: a confirm that meets a claim is answered at once, `in
 * progress` (the Worker first asks the executor whether the write is already in D1, and reports
 * it if so). A claim is left behind when its confirm can no longer report (this object restarted
 * since, as it does when the Worker is stopped) or its lease has passed: then a kind whose write
 * is recognisable by its action id is claimed again (it cannot write twice), and any other kind
 * is settled as failed, since its write may have happened. An ok report always wins: a write that
 * happened is the truth. An alarm expires the action. Failures are values (`RpcResult`), as
 * errors lose their type across RPC.
 */
export class PendingActionObject extends DurableObject<Env> {
  private queue: Promise<unknown> = Promise.resolve();
  // A fresh id for each life of this object: a claim made in an earlier one has no confirm left to report it.
  private readonly instance = crypto.randomUUID();

  /**
   * Empties this object for good, when the workshop it belongs to is deleted: nothing of the action
   * stays, whatever its state. Another workshop's action is left alone.
   */
  async purge(tenantId: string): Promise<void> {
    const action = await this.ctx.storage.get<StoredAction>("action");
    if (action && action.owner.tenantId !== tenantId) return;
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  /** Stores a freshly prepared action and schedules its expiry. */
  async create(input: {
    owner: ActionOwner;
    prepared: Prepared;
    ttlSeconds: number;
    preparedIn?: PreparedIn;
  }): Promise<RpcResult<ActionState>> {
    if (await this.ctx.storage.get("action")) return failure("conflict", "This action already exists.");
    const now = Date.now();
    const { kind, write, summary, preview, ambiguities, needs } = input.prepared;
    const action: StoredAction = {
      kind,
      write,
      summary,
      preview,
      ambiguities,
      needs,
      owner: input.owner,
      ...(input.preparedIn ? { preparedIn: input.preparedIn } : {}),
      status: "pending",
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + input.ttlSeconds * 1000).toISOString(),
    };
    await this.ctx.storage.put("action", action);
    await this.ctx.storage.setAlarm(now + input.ttlSeconds * 1000);
    return success(this.stateOf(action));
  }

  /**
   * The action as its owner sees it, in any state, with the claim of a confirm running it. A
   * left-behind claim of a kind whose write is not recognisable is settled as failed here.
   */
  look(owner: ActionOwner): Promise<RpcResult<Look>> {
    return this.serially(async () => {
      let action = await this.load(owner);
      if (!action) return this.unknown();
      if (action.claim && !action.claim.recognisable && this.orphaned(action.claim)) action = await this.interrupted(action);
      const claim = action.claim ? { id: action.claim.id, orphaned: this.orphaned(action.claim) } : null;
      // An action prepared before writes said the role they need (`needs`) asks the strictest.
      return success({ state: this.stateOf(action), needs: action.needs ?? "boss", claim });
    });
  }

  /**
   * Claims the write for one confirm: `run` for the first (and for a left-behind claim of a
   * recognisable kind), the final state for a confirmed one, and `action_in_progress` at once
   * while another confirm holds it. A claim made `once` (a person's answer that must count one
   * time only) is refused when the action is already running or confirmed.
   */
  claim(owner: ActionOwner, { leaseMs, recognisable, once }: ClaimOptions): Promise<RpcResult<Claim>> {
    return this.serially(async () => {
      const action = await this.load(owner);
      if (!action) return this.unknown();
      if (once && (action.status === "confirmed" || action.claim)) {
        return failure("action_not_confirmable", "This answer was already used: the action is confirmed or being confirmed.", {
          action: this.stateOf(action),
        });
      }
      if (action.status === "confirmed") return success({ run: false, state: this.stateOf(action) });
      if (action.status !== "pending") return this.notPending(action);
      if (action.ambiguities.length > 0 || action.write === null) {
        return failure(
          "action_not_confirmable",
          "This action still has open questions (see ambiguities). Ask the user to choose, then prepare it again with their choice; this one cannot be confirmed.",
        );
      }
      if (action.claim && !this.orphaned(action.claim)) return this.inProgress(action);
      if (action.claim && !action.claim.recognisable) return this.notPending(await this.interrupted(action));
      const claim: StoredClaim = { id: crypto.randomUUID(), since: Date.now(), instance: this.instance, leaseMs, recognisable };
      await this.ctx.storage.put("action", { ...action, claim });
      return success({ run: true, claimId: claim.id, kind: action.kind, write: action.write, summary: action.summary });
    });
  }

  /**
   * Records what running the write came to. A write that happened settles the action as confirmed
   * whoever reports it and whatever it said before; a refusal or a retry counts only from the
   * confirm that holds the claim (`claimId`), and a retry leaves the action pending.
   */
  report(owner: ActionOwner, claimId: string, settlement: Settlement): Promise<RpcResult<ActionState>> {
    return this.serially(async () => {
      const action = await this.load(owner);
      if (!action) return this.unknown();
      const { claim, ...rest } = action;
      if ("ok" in settlement && settlement.ok) {
        if (action.status === "confirmed") return success(this.stateOf(action));
        const { error: _, ...unfailed } = rest;
        return success(this.stateOf(await this.settle(unfailed, { status: "confirmed", result: settlement.result })));
      }
      if (claim?.id !== claimId) return success(this.stateOf(action));
      if ("retry" in settlement) {
        await this.ctx.storage.put("action", rest);
        return success(this.stateOf(rest));
      }
      const settled = await this.settle(rest, { status: "failed", error: { code: "action_stale", message: settlement.message } });
      return failure("action_stale", settlement.message, { action: this.stateOf(settled) });
    });
  }

  /**
   * Discards a pending action; cancelling twice is fine, unless `once` (a person's answer that must
   * count one time only), and cancelling a confirmed (or confirming) one is not.
   */
  cancel(owner: ActionOwner, { once = false }: { once?: boolean } = {}): Promise<RpcResult<ActionState>> {
    return this.serially(async () => {
      const action = await this.load(owner);
      if (!action) return this.unknown();
      if (action.status === "cancelled" && once) {
        return failure("action_not_confirmable", "This answer was already used: the action is cancelled.", {
          action: this.stateOf(action),
        });
      }
      if (action.status === "cancelled") return success(this.stateOf(action));
      if (action.status !== "pending") return this.notPending(action);
      if (action.claim) return this.inProgress(action);
      return success(this.stateOf(await this.settle(action, { status: "cancelled" })));
    });
  }

  override async alarm(): Promise<void> {
    const action = await this.ctx.storage.get<StoredAction>("action");
    if (action?.status === "pending" && !action.claim) {
      await this.settle(action, { status: "expired" });
      return;
    }
    if (action?.status === "pending" && action.claim) {
      // A confirm holds the write: look again once it has surely reported (or been left behind).
      if (!this.orphaned(action.claim)) return this.ctx.storage.setAlarm(Date.now() + 60_000);
      if (!action.claim.recognisable) {
        await this.interrupted(action);
        return;
      }
      // Left behind, with a write only the Worker can look up: kept for whoever asks (which settles
      // it) as long as a settled action is remembered, then forgotten like one.
      const forget = Date.parse(action.createdAt) + RETAIN_SECONDS * 1000;
      if (Date.now() < forget) return this.ctx.storage.setAlarm(forget);
    }
    await this.ctx.storage.deleteAll();
  }

  /** Runs `task` after every earlier look, claim, report or cancel on this action has finished. */
  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private orphaned(claim: StoredClaim): boolean {
    return claim.instance !== this.instance || Date.now() - claim.since >= claim.leaseMs;
  }

  /** Settles a left-behind claim of a kind whose write may have happened unseen: failed, saying so. */
  private interrupted(action: StoredAction): Promise<StoredAction> {
    const { claim: _, ...rest } = action;
    return this.settle(rest, {
      status: "failed",
      error: {
        code: "action_stale",
        message:
          "The confirm was interrupted while the write ran, so whether it happened is unknown (a call to another server cannot be looked up). Check, then prepare it again if it is still wanted.",
      },
    });
  }

  private inProgress(action: StoredAction) {
    return failure(
      "action_in_progress",
      `This action is being written right now by another confirm. Nothing more is needed: ask again in ${IN_PROGRESS_RETRY_SECONDS} s to see how it ended.`,
      { action: this.stateOf(action), retry_after_seconds: IN_PROGRESS_RETRY_SECONDS },
    );
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
    if (action.status === "pending" && !action.claim && Date.now() >= Date.parse(action.expiresAt)) {
      return this.settle(action, { status: "expired" });
    }
    return action;
  }

  private unknown() {
    return failure("action_unknown", "No such action. Check the action_id, or prepare the write again.");
  }

  private notPending(action: StoredAction) {
    const state = this.stateOf(action);
    switch (action.status) {
      case "expired":
        return failure(
          "action_expired",
          `This action expired at ${action.expiresAt} without being confirmed. Prepare it again.`,
          {
            action: state,
          },
        );
      case "cancelled":
        return failure("action_not_confirmable", "This action was cancelled. Prepare it again if it is still wanted.", {
          action: state,
        });
      case "confirmed":
        return failure("action_not_confirmable", "This action is already confirmed and cannot be cancelled.", { action: state });
      default:
        return failure("action_stale", action.error?.message ?? "This action was refused.", { action: state });
    }
  }

  private stateOf(action: StoredAction): ActionState {
    return {
      action_id: this.ctx.id.toString(),
      kind: action.kind,
      status: action.claim ? "confirming" : action.status,
      summary: action.summary,
      preview: action.preview,
      ambiguities: action.ambiguities,
      created_at: action.createdAt,
      expires_at: action.expiresAt,
      ...(action.result ? { result: action.result } : {}),
      ...(action.error ? { error: action.error } : {}),
      ...(action.preparedIn ? { prepared_in: action.preparedIn } : {}),
    };
  }
}
