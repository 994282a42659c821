import { AppError, notFound } from "../errors.ts";
import { unwrap } from "../rpc-result.ts";
import type { UserContext } from "../user-context.ts";
import { rememberObject } from "../workshop-objects.ts";
import type { SessionInspection } from "./consult-session.ts";
import { type Catalog, type SessionView, startSession } from "./engine.ts";
import type { ConsultService } from "./service.ts";
import type { Tree } from "./tree-schema.ts";
import { loadCatalog } from "./tree-store.ts";

/** `SessionState` as the design defines it: the view plus the id to continue with. */
export type SessionState = SessionView & { session_id: string };

function stubFor(consult: ConsultService, sessionId: string) {
  let id: DurableObjectId;
  try {
    id = consult.sessions.idFromString(sessionId);
  } catch {
    throw notFound(`'${sessionId}' is not a consultation session id. Start a new one with initiate_session.`);
  }
  return consult.sessions.get(id);
}

/** Only the trees the new session can reach: one tree, or all of them behind the topic chooser. */
function snapshotFor(catalog: Catalog, treeId: string | null): Catalog {
  if (treeId === null) return catalog;
  return { order: [treeId], trees: new Map([[treeId, catalog.trees.get(treeId) as Tree]]) };
}

/** Starts a consultation for the caller from their first question. */
export async function beginConsultation({
  consult,
  user,
  userQuery,
}: {
  consult: ConsultService;
  user: UserContext;
  userQuery: string;
}): Promise<SessionState> {
  const catalog = await loadCatalog(consult);
  if (catalog.order.length === 0) {
    throw new AppError(
      "no_trees",
      "No consultation trees are loaded yet. An admin uploads them (see docs/consultations.md, 'Decision trees').",
    );
  }
  const record = startSession(catalog, userQuery);
  const id = consult.sessions.newUniqueId();
  const view = unwrap(
    await consult.sessions.get(id).start({
      owner: { tenantId: consult.tenantId, userId: user.userId },
      catalog: snapshotFor(catalog, record.step.treeId),
      record,
      ttlSeconds: consult.ttlSeconds,
    }),
  );
  // A session is kept while it is used and a week after; deleting the workshop empties it sooner.
  await rememberObject(consult, {
    kind: "consult_session",
    objectId: id.toString(),
    forgetAfter: new Date(Date.now() + 90 * 86_400_000),
  });
  return { session_id: id.toString(), ...view };
}

/** Moves the caller's session along one option. */
export async function continueConsultation({
  consult,
  user,
  sessionId,
  optionId,
  userInput,
}: {
  consult: ConsultService;
  user: UserContext;
  sessionId: string;
  optionId: string;
  userInput?: string | undefined;
}): Promise<SessionState> {
  const view = unwrap(
    await stubFor(consult, sessionId).navigate({
      owner: { tenantId: consult.tenantId, userId: user.userId },
      optionId,
      ...(userInput === undefined ? {} : { userInput }),
    }),
  );
  return { session_id: sessionId, ...view };
}

/** The caller's session with its path, for the REST view. */
export async function inspectConsultation({
  consult,
  user,
  sessionId,
}: {
  consult: ConsultService;
  user: UserContext;
  sessionId: string;
}): Promise<SessionInspection & { session_id: string }> {
  const inspection = unwrap(await stubFor(consult, sessionId).inspect({ tenantId: consult.tenantId, userId: user.userId }));
  return { ...inspection, session_id: sessionId };
}
