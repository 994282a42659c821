import { AppError } from "../errors.ts";
import { LruMap } from "../lru-map.ts";
import { SYNONYM_STAMP_SQL } from "./synonym-store.ts";

/**
 * The workshop's knowledge bases, with the stamp of its synonym set (`SYNONYM_STAMP_SQL`; unknown,
 * and not needed, when it has no knowledge base).
 */
export interface TenantScope {
  kbIds: string[];
  synonymStamp: string | null;
}

/** Reads the tenant's `TenantScope` (bound to ?1), for a search's batch. */
export function scopeStatement(db: D1Database, tenantId: string): D1PreparedStatement {
  return db
    .prepare(`SELECT id, ${SYNONYM_STAMP_SQL} AS synonym_stamp FROM knowledge_bases WHERE tenant_id = ?1 ORDER BY id`)
    .bind(tenantId);
}

/** The `TenantScope` in the result of `scopeStatement`. */
export function scopeFrom(result: D1Result | undefined): TenantScope {
  const rows = (result?.results ?? []) as { id: string; synonym_stamp: string | null }[];
  return { kbIds: rows.map((r) => r.id), synonymStamp: rows[0]?.synonym_stamp ?? null };
}

/** Whether two reads of a tenant's scope agree. */
export function sameScope(a: TenantScope, b: TenantScope): boolean {
  return a.synonymStamp === b.synonymStamp && a.kbIds.length === b.kbIds.length && a.kbIds.every((id, i) => id === b.kbIds[i]);
}

/**
 * The knowledge bases a search may read: the ones asked for, all of which must be the caller's
 * (an id they cannot read is an error, never silently dropped), or else all of the tenant's.
 */
export function searchScope(tenant: TenantScope, requested: string[] | undefined): string[] {
  if (!requested || requested.length === 0) return tenant.kbIds;
  const own = new Set(tenant.kbIds);
  const unknown = requested.filter((id) => !own.has(id));
  if (unknown.length > 0) {
    throw new AppError(
      "knowledge_base_not_found",
      `No knowledge base ${unknown.map((id) => `'${id}'`).join(", ")} in your workshop. List yours with list_knowledge_bases or GET /api/knowledge-bases.`,
    );
  }
  return [...new Set(requested)];
}

// The last scope each workshop's search read in this isolate (4,096 workshops at most, a few
// knowledge base ids each). A search starts from it and checks it in its own batch
// (`gatherCandidates`), so a stale one costs a second round, never a wrong answer.
const lastSeen = new LruMap<string, TenantScope>(4096);

export function lastScope(tenantId: string): TenantScope | undefined {
  return lastSeen.get(tenantId);
}

export function rememberScope(tenantId: string, scope: TenantScope): void {
  lastSeen.set(tenantId, scope);
}

/** Forgets every scope kept, as an isolate new to every workshop (for tests). */
export function forgetScopes(): void {
  lastSeen.clear();
}
