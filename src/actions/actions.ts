import { AppError } from "../errors.ts";
import { log } from "../log.ts";
import { type RpcResult, unwrap } from "../rpc-result.ts";
import type { ActionView, PendingAction } from "../shapes.ts";
import type { UserContext } from "../user-context.ts";
import type { Claim, Settlement } from "./pending-action.ts";
import type { ActionService } from "./service.ts";
import type { ActionOwner, Confirmation, Prepared } from "./types.ts";

const ACTION_ID = /^[0-9a-f]{64}$/;

/**
 * How long a claimed write may run before another confirm may take it over: well past the longest
 * call an executor makes (an external tool call's limit is 20 s by default).
 */
export const CLAIM_LEASE_MS = 120_000;

function ownerOf(actions: ActionService, user: UserContext): ActionOwner {
  return { tenantId: actions.tenantId, userId: user.userId };
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

/**
 * Holds a prepared write in a new `PendingAction` object, for the caller alone to confirm. A kind
 * no executor runs is refused here, when it is prepared, rather than when someone confirms it.
 */
export async function holdAction({
  actions,
  user,
  prepared,
}: {
  actions: ActionService;
  user: UserContext;
  prepared: Prepared;
}): Promise<ActionView> {
  if (!actions.executors.has(prepared.kind)) throw new Error(`No executor is registered for the action kind '${prepared.kind}'.`);
  const stub = actions.objects.get(actions.objects.newUniqueId());
  return unwrap(await stub.create({ owner: ownerOf(actions, user), prepared, ttlSeconds: actions.ttlSeconds }));
}

/** The caller's action, in whatever state it is. */
export async function getAction({
  actions,
  user,
  actionId,
}: {
  actions: ActionService;
  user: UserContext;
  actionId: string;
}): Promise<ActionView> {
  return unwrap(await stubFor(actions, actionId).view(ownerOf(actions, user)));
}

/**
 * Confirms the caller's action: the write runs once, with the executor of its kind; confirming
 * again (or at the same time) returns the same result, unless `once` is set: then only the first
 * confirm counts and any other is refused (`action_not_confirmable`), for an answer that must
 * not be replayed. `confirmation` says which path said yes; the face decides that it may (a
 * person's click or answer, or a key that allows agents to confirm).
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
}): Promise<ActionView> {
  const stub = stubFor(actions, actionId);
  const owner = ownerOf(actions, user);
  // The kind is read first so the claim knows whether a stale run of it may be retaken. (Answers
  // holding `unknown` are typed `never` by workers-types' RPC mapping, so they are typed here.)
  const { kind } = unwrap((await stub.view(owner)) as RpcResult<ActionView>);
  const executor = actions.executors.get(kind);
  if (!executor) throw new Error(`No executor is registered for the action kind '${kind}'.`);
  const claim = unwrap(
    (await stub.claim(owner, { leaseMs: CLAIM_LEASE_MS, idempotent: executor.idempotent, once })) as RpcResult<Claim>,
  );
  if (!claim.run) return claim.view;
  let settlement: Settlement;
  try {
    settlement = await executor.execute({
      actionId,
      owner,
      write: claim.write,
      summary: claim.summary,
      now: new Date(),
      confirmation,
    });
  } catch (error) {
    // Executors write in one transaction: a throw means nothing was written, so the action stays pending.
    log("error", "pending_action_write_failed", { action_id: actionId, kind, error });
    settlement = {
      retry: true,
      message: "Saving failed and nothing was written. The action is still pending: try confirming again.",
    };
  }
  return unwrap(await stub.report(owner, settlement));
}

/**
 * Cancels the caller's pending action; nothing is written. Cancelling again returns the same view,
 * unless `once` is set: then only the first cancel counts and any other is refused, as for a
 * confirm (`confirmAction`).
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
}): Promise<ActionView> {
  return unwrap(await stubFor(actions, actionId).cancel(ownerOf(actions, user), { once }));
}

/** The confirm page of an action, where its owner says yes in the browser (served at `/actions/:id`). */
export function confirmPageUrl(origin: string, actionId: string): string {
  return `${origin}/actions/${encodeURIComponent(actionId)}`;
}

/**
 * Refuses an agent's confirm for a credential that may not confirm, pointing to the confirm page.
 * The action is looked up first, so the link is only ever given for the caller's own action.
 */
export async function refuseAgentConfirm({
  actions,
  user,
  actionId,
  origin,
}: {
  actions: ActionService;
  user: UserContext;
  actionId: string;
  origin: string;
}): Promise<never> {
  const view = await getAction({ actions, user, actionId });
  const confirmUrl = confirmPageUrl(origin, view.action_id);
  throw new AppError(
    "confirmation_required",
    `A person must confirm this write: ask the user to open ${confirmUrl}, check the preview and press Confirm there. This key may not confirm writes on its own (its owner can allow that in Weft's settings).`,
    { details: { action_id: view.action_id, confirm_url: confirmUrl } },
  );
}

/** An action as a tool's pending result. */
export function pendingResult(view: ActionView): PendingAction {
  return {
    actionId: view.action_id,
    summary: view.summary,
    preview: view.preview,
    ambiguities: view.ambiguities,
    expiresAt: view.expires_at,
  };
}
