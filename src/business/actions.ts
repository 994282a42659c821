import { AppError } from "../errors.ts";
import { unwrap } from "../rpc-result.ts";
import type { BusinessService } from "../services.ts";
import type { PendingAction as PendingActionResult } from "../tools/tool.ts";
import type { UserContext } from "../user-context.ts";
import type { ActionOwner, ActionView, Prepared } from "./action-types.ts";

const ACTION_ID = /^[0-9a-f]{64}$/;

function ownerOf(user: UserContext): ActionOwner {
  return { tenantId: user.tenantId, userId: user.userId };
}

function stubFor(business: BusinessService, actionId: string) {
  const unknown = new AppError(
    "action_unknown",
    `'${actionId.slice(0, 80)}' is not an action id. Check it, or prepare the write again.`,
  );
  if (!ACTION_ID.test(actionId)) throw unknown;
  let id: DurableObjectId;
  try {
    id = business.actions.idFromString(actionId);
  } catch {
    throw unknown;
  }
  return business.actions.get(id);
}

/** Holds a prepared write in a new `PendingAction` object, for the caller alone to confirm. */
export async function holdAction({
  business,
  user,
  prepared,
}: {
  business: BusinessService;
  user: UserContext;
  prepared: Prepared;
}): Promise<ActionView> {
  const stub = business.actions.get(business.actions.newUniqueId());
  return unwrap(await stub.create({ owner: ownerOf(user), prepared, ttlSeconds: business.ttlSeconds }));
}

/** The caller's action, in whatever state it is. */
export async function getAction({
  business,
  user,
  actionId,
}: {
  business: BusinessService;
  user: UserContext;
  actionId: string;
}): Promise<ActionView> {
  return unwrap(await stubFor(business, actionId).view(ownerOf(user)));
}

/** Confirms the caller's action: the write happens once; confirming again returns the same result. */
export async function confirmAction({
  business,
  user,
  actionId,
}: {
  business: BusinessService;
  user: UserContext;
  actionId: string;
}): Promise<ActionView> {
  return unwrap(await stubFor(business, actionId).confirm(ownerOf(user)));
}

/** Cancels the caller's pending action; nothing is written. */
export async function cancelAction({
  business,
  user,
  actionId,
}: {
  business: BusinessService;
  user: UserContext;
  actionId: string;
}): Promise<ActionView> {
  return unwrap(await stubFor(business, actionId).cancel(ownerOf(user)));
}

/** An action as a tool's pending result. */
export function pendingResult(view: ActionView): PendingActionResult {
  return {
    actionId: view.action_id,
    summary: view.summary,
    preview: view.preview,
    ambiguities: view.ambiguities,
    expiresAt: view.expires_at,
  };
}
