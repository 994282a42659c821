import { AppError, forbidden } from "../errors.ts";
import { log } from "../log.ts";
import { roleAllows } from "../permissions.ts";
import { type RpcResult, unwrap } from "../rpc-result.ts";
import { sha256Hex } from "../sha256.ts";
import type { PendingAction, PreparedIn } from "../shapes.ts";
import type { UserContext } from "../user-context.ts";
import { rememberObject } from "../workshop-objects.ts";
import type { ActionState, Claim, Look, Settlement } from "./pending-action.ts";
import type { ActionService } from "./service.ts";
import type { ActionOwner, Approval, Confirmation, Executor, Prepared } from "./types.ts";

const ACTION_ID = /^[0-9a-f]{64}$/;

/**
 * How long a confirm's claim on a write holds before another confirm may take it over (a kind
 * whose write is recognisable by its action id) or settle it as failed (any other). A write into
 * D1 is done in seconds or has failed; a call to another server may run its whole time limit (20 s
 * by default, at most 120 s).
 */
export const CLAIM_LEASE_MS = { recognisable: 30_000, other: 120_000 } as const;

function ownerOf(actions: ActionService, user: UserContext): ActionOwner {
  return { tenantId: actions.tenantId, userId: user.userId };
}

/** The confirm page of an action, where its owner says yes in the browser (served at `/actions/:id`). */
export function confirmPageUrl(origin: string, actionId: string): string {
  return `${origin}/actions/${encodeURIComponent(actionId)}`;
}

/** An action as it goes on the wire: with its confirm page's address. */
function wire(actions: ActionService, state: ActionState): PendingAction {
  return { ...state, confirm_url: confirmPageUrl(actions.origin, state.action_id) };
}

/** A pending-action object's answer, its failures rethrown with the action they name on the wire too. */
function answer<T>(actions: ActionService, result: RpcResult<T>): T {
  if (result.ok || !result.details?.action) return unwrap(result);
  const action = wire(actions, result.details.action as ActionState);
  return unwrap({ ...result, details: { ...result.details, action } });
}

function stubFor(actions: ActionService, actionId: string) {
  const unknown = new AppError(
    "action_unknown",
    `'${actionId.slice(0, 80)}' is not an action id. Check it, or prepare the write again.`,
  );
  if (!ACTION_ID.test(actionId)) throw unknown;
  let id: DurableObjectId;
  try {
    id = actions.objects.idFromString(actionId);
  } catch {
    throw unknown;
  }
  return actions.objects.get(id);
}

function executorOf(actions: ActionService, kind: string): Executor {
  const executor = actions.executors.get(kind);
  if (!executor) throw new Error(`No executor is registered for the action kind '${kind}'.`);
  return executor;
}

/**
 * Holds a prepared write in a new `PendingAction` object, for the caller alone to confirm. A kind
 * no executor runs is refused here, when it is prepared, rather than when someone confirms it.
 */
export async function holdAction({
  actions,
  user,
  prepared,
  preparedIn,
}: {
  actions: ActionService;
  user: UserContext;
  prepared: Prepared;
  /** Where it is prepared, for the confirm page to say. */
  preparedIn?: PreparedIn;
}): Promise<PendingAction> {
  executorOf(actions, prepared.kind);
  const id = actions.objects.newUniqueId();
  const created = await actions.objects
    .get(id)
    .create({ owner: ownerOf(actions, user), prepared, ttlSeconds: actions.ttlSeconds, ...(preparedIn ? { preparedIn } : {}) });
  const state = unwrap(created as RpcResult<ActionState>);
  // Settled actions are kept a week (pending-action.ts); deleting the workshop empties it sooner.
  const forgetAfter = new Date(Date.now() + (actions.ttlSeconds + 8 * 24 * 3600) * 1000);
  await rememberObject(actions, { kind: "pending_action", objectId: id.toString(), forgetAfter });
  return wire(actions, state);
}

type Stub = ReturnType<typeof stubFor>;

/**
 * The action's truth when a confirm holds it: confirmed, with what it wrote, if its write is in D1;
 * pending again if its confirm was left behind (the object restarted, or the lease passed) and
 * wrote nothing; else still `confirming`. Only for kinds whose write is recognisable by its
 * action id: the object itself settles the others (as failed, once left behind).
 */
async function truthOf(actions: ActionService, stub: Stub, owner: ActionOwner, look: Look): Promise<ActionState> {
  const { state, claim } = look;
  const executor = executorOf(actions, state.kind);
  if (!claim || !executor.written) return state;
  const result = await executor.written({ actionId: state.action_id, owner });
  if (result) return answer(actions, (await stub.report(owner, claim.id, { ok: true, result })) as RpcResult<ActionState>);
  if (!claim.orphaned) return state;
  return answer(actions, (await stub.report(owner, claim.id, { retry: true })) as RpcResult<ActionState>);
}

async function looked(actions: ActionService, stub: Stub, owner: ActionOwner): Promise<Look> {
  // Answers holding `unknown` are typed `never` by workers-types' RPC mapping, so they are typed here.
  return answer(actions, (await stub.look(owner)) as RpcResult<Look>);
}

/**
 * The caller's action, in whatever state it is, told truthfully at once: an action whose confirm
 * was cut short reads `confirmed` if its write is in D1 and `pending` if its confirm is gone
 * without writing (see `truthOf`).
 */
export async function getAction({
  actions,
  user,
  actionId,
}: {
  actions: ActionService;
  user: UserContext;
  actionId: string;
}): Promise<PendingAction> {
  const stub = stubFor(actions, actionId);
  const owner = ownerOf(actions, user);
  return wire(actions, await truthOf(actions, stub, owner, await looked(actions, stub, owner)));
}

/**
 * Checks the person again before their write runs: they must still belong to the workshop and
 * hold the role the write needs (403 otherwise, and nothing is written). Resolves what the audit
 * records: their name, and the text the confirming path showed with its digest.
 */
async function approve(actions: ActionService, user: UserContext, look: Look, confirmation: Confirmation): Promise<Approval> {
  const person = await actions.people.current(user.userId);
  if (!person)
    throw forbidden(
      "You are no longer an active member of this workshop, so this write cannot be confirmed. Nothing was written.",
    );
  if (!roleAllows(person.role, look.needs)) {
    throw forbidden(
      `This write needs the '${look.needs}' role and yours is now '${person.role}', so it cannot be confirmed. Nothing was written.`,
    );
  }
  const shownText = confirmation.shown(wire(actions, look.state));
  return {
    via: confirmation.via,
    credential: confirmation.credential,
    personName: person.name,
    shownText,
    shownSha256: await sha256Hex(shownText),
  };
}

/**
 * Confirms the caller's action: the write runs once, with the executor of its kind; confirming
 * again returns the same result, unless `once` is set: then only the first confirm counts and any
 * other is refused (`action_not_confirmable`), for an answer that must not be replayed. A confirm
 * that meets another one still writing is answered at once: with the write's result if it is in
 * D1 already, else `action_in_progress` (409, retry in a second), never a wait on a confirm that
 * may be gone. `confirmation` says which path said yes; the face decides that it may (a person's
 * click or answer, or a credential whose owner allowed that path). The person is checked again
 * first (`approve`).
 */
export async function confirmAction({
  actions,
  user,
  actionId,
  confirmation,
  once = false,
}: {
  actions: ActionService;
  user: UserContext;
  actionId: string;
  confirmation: Confirmation;
  once?: boolean;
}): Promise<PendingAction> {
  const stub = stubFor(actions, actionId);
  const owner = ownerOf(actions, user);
  const look = await looked(actions, stub, owner);
  const executor = executorOf(actions, look.state.kind);
  const state = await truthOf(actions, stub, owner, look);
  const approval = state.status === "pending" ? await approve(actions, user, { ...look, state }, confirmation) : null;
  const claim = answer(
    actions,
    (await stub.claim(owner, {
      leaseMs: executor.written ? CLAIM_LEASE_MS.recognisable : CLAIM_LEASE_MS.other,
      recognisable: executor.written !== undefined,
      once,
    })) as RpcResult<Claim>,
  );
  if (!claim.run) return wire(actions, claim.state);
  // A claim is only granted on a pending action, which `approve` has checked: this holds it to that.
  if (!approval) throw new Error(`Action ${actionId} was claimed without an approval.`);
  let settlement: Settlement;
  try {
    settlement = await executor.execute({
      actionId,
      owner,
      write: claim.write,
      summary: claim.summary,
      now: new Date(),
      approval,
    });
  } catch (error) {
    // Executors write in one transaction: a throw means nothing was written, so the action stays pending.
    log("error", "pending_action_write_failed", { action_id: actionId, kind: claim.kind, error });
    settlement = { retry: true };
  }
  const settled = answer(actions, (await stub.report(owner, claim.claimId, settlement)) as RpcResult<ActionState>);
  if ("retry" in settlement && settled.status !== "confirmed") {
    throw new AppError(
      "unavailable",
      "Saving failed and nothing was written. The action is still pending: try confirming again.",
      { details: { action: wire(actions, settled) } },
    );
  }
  return wire(actions, settled);
}

/**
 * Cancels the caller's pending action; nothing is written. Cancelling again returns the same view,
 * unless `once` is set: then only the first cancel counts and any other is refused, as for a
 * confirm (`confirmAction`). An action a confirm is writing cannot be cancelled: its write is
 * looked up first (then it is confirmed), and a confirm left behind without writing is let go.
 */
export async function cancelAction({
  actions,
  user,
  actionId,
  once = false,
}: {
  actions: ActionService;
  user: UserContext;
  actionId: string;
  once?: boolean;
}): Promise<PendingAction> {
  const stub = stubFor(actions, actionId);
  const owner = ownerOf(actions, user);
  await truthOf(actions, stub, owner, await looked(actions, stub, owner));
  return wire(actions, answer(actions, (await stub.cancel(owner, { once })) as RpcResult<ActionState>));
}

/**
 * Refuses a confirm by a credential whose owner did not allow that path, pointing to the confirm
 * page. The action is looked up first, so the link is only ever given for the caller's own action.
 */
export async function refuseConfirm({
  actions,
  user,
  actionId,
  why,
}: {
  actions: ActionService;
  user: UserContext;
  actionId: string;
  /** What this credential may not do, in a sentence. */
  why: string;
}): Promise<never> {
  const view = await getAction({ actions, user, actionId });
  throw new AppError(
    "confirmation_required",
    `A person must confirm this write: ask the user to open ${view.confirm_url}, check the preview and press Confirm there. ${why} Nothing was written.`,
    { details: { action_id: view.action_id, confirm_url: view.confirm_url } },
  );
}
