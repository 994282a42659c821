import { DurableObject } from "cloudflare:workers";
import { configFor } from "../config.ts";
import { confirmedCallRunner } from "../federation/confirmed-call.ts";
import { log } from "../log.ts";
import { failure, type RpcResult, success } from "../rpc-result.ts";
import { buildServices } from "../services.ts";
import type { ActionOwner, ActionStatus, ActionView, Prepared } from "./action-types.ts";
import { executeWrite } from "./execute.ts";

interface StoredAction extends Prepared {
  owner: ActionOwner;
  status: ActionStatus;
  createdAt: string;
  expiresAt: string;
  result?: Record<string, unknown>;
  error?: { code: string; message: string };
}

// How long a settled action (confirmed, cancelled, expired, failed) is remembered, so that a
// second confirm gets the first answer and a late one learns what happened.
const RETAIN_SECONDS = 7 * 24 * 3600;

/**
 * One prepared write awaiting its owner's confirmation. Confirms and cancels run one after the
 * other (a queue in the object), so twenty concurrent confirms write once and all get the same
 * answer; an alarm expires the action. Failures are values (`RpcResult`), as errors lose their
 * type across RPC.
 */
export class PendingAction extends DurableObject<Env> {
  private queue: Promise<unknown> = Promise.resolve();

  /** Stores a freshly prepared action and schedules its expiry. */
  async create(input: { owner: ActionOwner; prepared: Prepared; ttlSeconds: number }): Promise<RpcResult<ActionView>> {
    if (await this.ctx.storage.get("action")) return failure("conflict", "This action already exists.");
    const now = Date.now();
    const action: StoredAction = {
      ...input.prepared,
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

  /** Executes the write once; a second confirm answers as the first did. */
  confirm(owner: ActionOwner): Promise<RpcResult<ActionView>> {
    return this.serially(() => this.confirmNow(owner));
  }

  /** Discards a pending action; cancelling twice is fine, cancelling a confirmed one is not. */
  cancel(owner: ActionOwner): Promise<RpcResult<ActionView>> {
    return this.serially(async () => {
      const action = await this.load(owner);
      if (!action) return this.unknown();
      if (action.status === "cancelled") return success(this.viewOf(action));
      if (action.status !== "pending") return this.notPending(action);
      return success(this.viewOf(await this.settle(action, { status: "cancelled" })));
    });
  }

  override async alarm(): Promise<void> {
    const action = await this.ctx.storage.get<StoredAction>("action");
    if (action?.status === "pending") {
      await this.settle(action, { status: "expired" });
      return;
    }
    await this.ctx.storage.deleteAll();
  }

  private async confirmNow(owner: ActionOwner): Promise<RpcResult<ActionView>> {
    const action = await this.load(owner);
    if (!action) return this.unknown();
    if (action.status === "confirmed") return success(this.viewOf(action));
    if (action.status !== "pending") return this.notPending(action);
    if (action.ambiguities.length > 0 || !action.write) {
      return failure(
        "action_not_confirmable",
        "This action still has open questions (see ambiguities). Ask the user to choose, then prepare it again with their choice; this one cannot be confirmed.",
      );
    }
    let outcome: Awaited<ReturnType<typeof executeWrite>>;
    try {
      outcome = await executeWrite({
        db: this.env.DB,
        actionId: this.ctx.id.toString(),
        owner,
        write: action.write,
        now: new Date(),
        runExternal: confirmedCallRunner(buildServices(this.env, configFor(this.env)).federation),
      });
    } catch (error) {
      // Nothing was written (the batch is one transaction): the action stays pending, to be confirmed again.
      log("error", "pending_action_write_failed", { action_id: this.ctx.id.toString(), error });
      return failure("unavailable", "Saving failed and nothing was written. The action is still pending: try confirming again.");
    }
    if (!outcome.ok) {
      const settled = await this.settle(action, { status: "failed", error: { code: "action_stale", message: outcome.message } });
      return failure("action_stale", outcome.message, { action: this.viewOf(settled) });
    }
    return success(this.viewOf(await this.settle(action, { status: "confirmed", result: outcome.result })));
  }

  /** Runs `task` after every earlier confirm or cancel on this action has finished. */
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

  /** The stored action if `owner` prepared it; a pending one past its time counts as expired. */
  private async load(owner: ActionOwner): Promise<StoredAction | null> {
    const action = await this.ctx.storage.get<StoredAction>("action");
    // Another person's action is indistinguishable from one that does not exist.
    if (!action || action.owner.tenantId !== owner.tenantId || action.owner.userId !== owner.userId) return null;
    if (action.status === "pending" && Date.now() >= Date.parse(action.expiresAt)) {
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
