import type { PendingActionObject } from "./actions/pending-action.ts";
import type { ConsultSession } from "./consult/consult-session.ts";
import { notFound } from "./errors.ts";
import { movingError } from "./placement/fence.ts";
import type { SearchBackends } from "./search/backends.ts";
import { keywordTable } from "./search/keyword-index.ts";
import { removeVectorsQuietly } from "./search/vector-index.ts";
import type { WorkshopDb } from "./workshop-db.ts";
import { objectsOf } from "./workshop-objects.ts";

/** Durable Objects that empty themselves of a workshop's state (the chats' reply logs), seen from here. */
interface PurgeableObjects {
  idFromString(id: string): DurableObjectId;
  get(id: DurableObjectId): { purge(tenantId: string): Promise<void> };
}

// Children before parents: piece records and adjustments point at employees, processes and orders.
const BUSINESS_TABLES = [
  "piece_records",
  "payroll_adjustments",
  "business_audit",
  "orders",
  "process_prices",
  "processes",
  "styles",
  "employees",
] as const;

/** What a deletion refused during a move is told to wait: about one step of the move. */
const MOVE_RETRY_AFTER_SECONDS = 60;

export interface DeletedTenant {
  knowledge_bases: number;
  documents: number;
  chunks: number;
}

/**
 * Deletes a workshop and everything it owns (refused, 503 `workshop_moving`, while it is being
 * moved, before anything is emptied): the Durable Objects that hold its pending writes and
 * consultations, emptied; on its shard, in one D1 batch, its knowledge bases,
 * documents, chunks, the rows of its keyword index, its business records and its own record (whose
 * cascade takes its chats, FAQ, synonyms, trees and external servers); then, in the directory, its
 * people, keys and entry (whose cascade ends their sessions and OAuth connections); then the
 * vectors of exactly the chunks the first batch deleted. The shard goes first, so a failure in
 * between leaves a workshop the directory still knows, which deleting again finishes. The business
 * tables reference `tenants` without a cascade, so they are emptied here, children before parents;
 * a table added later needs `tenant_id … ON DELETE CASCADE` or a line below. The (then empty)
 * keyword table is kept, since other isolates may remember it as existing.
 */
export async function deleteTenant({
  workshop,
  directory,
  objects,
}: {
  workshop: WorkshopDb & { backends: SearchBackends };
  directory: D1Database;
  /** The Durable Objects that may hold its state: pending writes, consultations and chats' reply logs. */
  objects: {
    actions: DurableObjectNamespace<PendingActionObject>;
    consultations: DurableObjectNamespace<ConsultSession>;
    /** Absent when no reply is logged (`CHAT_STREAM_LOG=none`): none was remembered either. */
    chatStreams?: PurgeableObjects | undefined;
  };
}): Promise<DeletedTenant> {
  const { db, tenantId } = workshop;
  const known = await directory
    .prepare("SELECT move_state FROM tenants WHERE id = ?1")
    .bind(tenantId)
    .first<{ move_state: string | null }>();
  if (!known) throw notFound(`No workshop '${tenantId}'.`);
  // Mid-move its rows are on two shards until the move's last step: deleted now, one copy would stay.
  if (known.move_state !== null) throw movingError(MOVE_RETRY_AFTER_SECONDS);
  // Its objects first, while the workshop's rows still say which they are.
  const [actions, sessions, streams] = await Promise.all([
    objectsOf(workshop, "pending_action"),
    objectsOf(workshop, "consult_session"),
    objectsOf(workshop, "chat_stream"),
  ]);
  await Promise.all([
    ...streams.map((id) => objects.chatStreams?.get(objects.chatStreams.idFromString(id)).purge(tenantId)),
    ...actions.map((id) => objects.actions.get(objects.actions.idFromString(id)).purge(tenantId)),
    ...sessions.map((id) => objects.consultations.get(objects.consultations.idFromString(id)).purge(tenantId)),
  ]);
  const table = await keywordTable(tenantId);
  const hasKeywordTable = await db
    .prepare("SELECT 1 AS ok FROM sqlite_master WHERE type = 'table' AND name = ?1")
    .bind(table)
    .first();
  const results = await db.batch([
    ...(hasKeywordTable ? [db.prepare(`DELETE FROM ${table}`)] : []),
    db.prepare("DELETE FROM chunks WHERE tenant_id = ?1 RETURNING id").bind(tenantId),
    db.prepare("DELETE FROM documents WHERE tenant_id = ?1 RETURNING id").bind(tenantId),
    db.prepare("DELETE FROM knowledge_bases WHERE tenant_id = ?1 RETURNING id").bind(tenantId),
    ...BUSINESS_TABLES.map((table) => db.prepare(`DELETE FROM ${table} WHERE tenant_id = ?1`).bind(tenantId)),
    db.prepare("DELETE FROM tenants WHERE id = ?1").bind(tenantId),
  ]);
  await directory.batch([
    directory.prepare("DELETE FROM api_keys WHERE tenant_id = ?1").bind(tenantId),
    directory.prepare("DELETE FROM users WHERE tenant_id = ?1").bind(tenantId),
    directory.prepare("DELETE FROM tenants WHERE id = ?1").bind(tenantId),
  ]);
  const [chunks, documents, knowledgeBases] = results.slice(hasKeywordTable ? 1 : 0).map((r) => r.results as { id: string }[]);
  await removeVectorsQuietly(
    workshop.backends.vectorIndex,
    tenantId,
    (chunks ?? []).map((r) => r.id),
    "deleted_tenant",
  );
  return { knowledge_bases: knowledgeBases?.length ?? 0, documents: documents?.length ?? 0, chunks: chunks?.length ?? 0 };
}
