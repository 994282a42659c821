import { DEFAULT_SYNONYMS } from "./default-synonyms.ts";
import { normaliseGroups } from "./synonyms.ts";

/** A workshop's synonym groups as stored and served, and whether they are the shipped default. */
export interface SynonymSettings {
  groups: string[][];
  is_default: boolean;
  updated_at: string | null;
}

/** The workshop's synonym groups, or the shipped default when it has not set its own. */
export async function getSynonyms({ db, tenantId }: { db: D1Database; tenantId: string }): Promise<SynonymSettings> {
  const row = await db
    .prepare("SELECT groups_json, updated_at FROM synonym_sets WHERE tenant_id = ?1")
    .bind(tenantId)
    .first<{ groups_json: string; updated_at: string }>();
  if (!row) return { groups: DEFAULT_SYNONYMS.map((g) => [...g]), is_default: true, updated_at: null };
  return { groups: JSON.parse(row.groups_json) as string[][], is_default: false, updated_at: row.updated_at };
}

/** Replaces the workshop's synonym groups (an empty list turns synonyms off). */
export async function putSynonyms({
  db,
  tenantId,
  groups,
}: {
  db: D1Database;
  tenantId: string;
  groups: readonly (readonly string[])[];
}): Promise<SynonymSettings> {
  const normalised = normaliseGroups(groups);
  await db
    .prepare(
      `INSERT INTO synonym_sets (tenant_id, groups_json) VALUES (?1, ?2)
       ON CONFLICT (tenant_id) DO UPDATE SET groups_json = excluded.groups_json, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    )
    .bind(tenantId, JSON.stringify(normalised))
    .run();
  return getSynonyms({ db, tenantId });
}

/** Goes back to the shipped default groups. */
export async function resetSynonyms({ db, tenantId }: { db: D1Database; tenantId: string }): Promise<SynonymSettings> {
  await db.prepare("DELETE FROM synonym_sets WHERE tenant_id = ?1").bind(tenantId).run();
  return getSynonyms({ db, tenantId });
}
