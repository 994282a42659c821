import { decodeCursor, page } from "../cursor.ts";
import { notFound } from "../errors.ts";
import type { AuditEntry, AuditRecord, ConfirmationPath } from "../shapes.ts";
import type { ActionService } from "./service.ts";

// Each executor writes its entry in the batch of its write; nothing changes or deletes one after
// (a trigger refuses any UPDATE, migration 0018). People are the directory's, maybe another
// database: an entry holds its person's name, and older entries have theirs read apart.

const COLUMNS = `id, user_id, user_name, action_id, kind, entity_id, values_json, summary, confirmed_via, credential,
  confirmed_key, shown_sha256, created_at`;

interface AuditRow {
  id: string;
  user_id: string;
  user_name: string | null;
  action_id: string;
  kind: string;
  entity_id: string;
  values_json: string;
  summary: string | null;
  confirmed_via: ConfirmationPath | null;
  credential: string | null;
  confirmed_key: string | null;
  shown_sha256: string | null;
  created_at: string;
}

type Audit = Pick<ActionService, "db" | "tenantId" | "people">;

async function entriesOf(actions: Audit, rows: readonly AuditRow[]): Promise<AuditEntry[]> {
  const unnamed = [...new Set(rows.filter((r) => r.user_name === null).map((r) => r.user_id))];
  const names = unnamed.length > 0 ? await actions.people.names(unnamed) : new Map<string, string>();
  return rows.map(
    (r): AuditEntry => ({
      id: r.id,
      user_id: r.user_id,
      user_name: r.user_name ?? names.get(r.user_id) ?? null,
      action_id: r.action_id,
      kind: r.kind,
      entity_id: r.entity_id,
      values: JSON.parse(r.values_json) as unknown,
      summary: r.summary,
      confirmed_via: r.confirmed_via,
      credential: r.credential,
      confirmed_key_prefix: r.confirmed_key,
      shown_sha256: r.shown_sha256,
      created_at: r.created_at,
    }),
  );
}

/** A page of the workshop's executed writes, newest first. */
export async function listAudit({
  actions,
  limit,
  cursor,
}: {
  actions: Audit;
  limit: number;
  cursor?: string | undefined;
}): Promise<{ items: AuditEntry[]; next_cursor: string | null }> {
  const after = cursor ? decodeCursor(cursor, 2).map(String) : null;
  const { results } = await actions.db
    .prepare(
      `SELECT ${COLUMNS} FROM business_audit
        WHERE tenant_id = ?1 ${after ? "AND (created_at, id) < (?2, ?3)" : ""}
        ORDER BY created_at DESC, id DESC LIMIT ${limit + 1}`,
    )
    .bind(actions.tenantId, ...(after ?? []))
    .all<AuditRow>();
  return page(await entriesOf(actions, results), limit, (r) => [r.created_at, r.id]);
}

/**
 * One entry of the workshop's audit, with the preview text its person was shown, so that a boss
 * can check the text against `shown_sha256`. Another workshop's entry is unknown (404).
 */
export async function getAuditEntry({ actions, id }: { actions: Audit; id: string }): Promise<AuditRecord> {
  const row = await actions.db
    .prepare(`SELECT ${COLUMNS}, shown_text FROM business_audit WHERE id = ?1 AND tenant_id = ?2`)
    .bind(id, actions.tenantId)
    .first<AuditRow & { shown_text: string | null }>();
  if (!row) throw notFound(`No audit entry '${id.slice(0, 100)}'.`);
  const [entry] = await entriesOf(actions, [row]);
  return { ...(entry as AuditEntry), shown_text: row.shown_text };
}
