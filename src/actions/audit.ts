import { decodeCursor, page } from "../cursor.ts";
import type { AuditEntry } from "../shapes.ts";
import type { ActionService } from "./service.ts";

/**
 * A page of the workshop's executed writes, newest first: each executor writes its entry with its
 * write. Who confirmed is an id: their name is the directory's (`user_name` is left null here).
 */
export async function listAudit({
  actions,
  limit,
  cursor,
}: {
  actions: Pick<ActionService, "db" | "tenantId">;
  limit: number;
  cursor?: string | undefined;
}): Promise<{ items: AuditEntry[]; next_cursor: string | null }> {
  const after = cursor ? decodeCursor(cursor, 2).map(String) : null;
  const { results } = await actions.db
    .prepare(
      `SELECT a.id, a.user_id, NULL AS user_name, a.action_id, a.kind, a.entity_id, a.values_json, a.summary, a.confirmed_via, a.confirmed_key, a.created_at
         FROM business_audit a
        WHERE a.tenant_id = ?1 ${after ? "AND (a.created_at, a.id) < (?2, ?3)" : ""}
        ORDER BY a.created_at DESC, a.id DESC LIMIT ${limit + 1}`,
    )
    .bind(actions.tenantId, ...(after ?? []))
    .all<Omit<AuditEntry, "values" | "confirmed_key_prefix"> & { values_json: string; confirmed_key: string | null }>();
  const items = results.map(
    (r): AuditEntry => ({
      id: r.id,
      user_id: r.user_id,
      user_name: r.user_name,
      action_id: r.action_id,
      kind: r.kind,
      entity_id: r.entity_id,
      values: JSON.parse(r.values_json) as unknown,
      summary: r.summary,
      confirmed_via: r.confirmed_via,
      confirmed_key_prefix: r.confirmed_key,
      created_at: r.created_at,
    }),
  );
  return page(items, limit, (r) => [r.created_at, r.id]);
}
