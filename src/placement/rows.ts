import { keywordTableOf, tableLayouts } from "./tables.ts";

/**
 * Deletes every row of one workshop from one database, in one batch: its keyword index rows first
 * (found through its chunks), then its tables children before parents. On the primary database the
 * workshop's record is the directory's own entry (`keepRecord`), so it stays.
 */
export async function deleteWorkshopRows(db: D1Database, workshopId: string, { keepRecord = false } = {}): Promise<void> {
  const layouts = await tableLayouts(db);
  const keyword = await keywordTableOf(workshopId);
  const hasKeywordTable = await db
    .prepare("SELECT 1 AS ok FROM sqlite_master WHERE type = 'table' AND name = ?1")
    .bind(keyword)
    .first();
  const statements = [
    ...(hasKeywordTable
      ? [db.prepare(`DELETE FROM "${keyword}" WHERE rowid IN (SELECT rowid FROM chunks WHERE tenant_id = ?1)`).bind(workshopId)]
      : []),
    ...layouts
      .filter((table) => !(keepRecord && table.name === "tenants"))
      .reverse()
      .map((table) => db.prepare(`DELETE FROM "${table.name}" WHERE ${table.where}`).bind(workshopId)),
  ];
  await db.batch(statements);
}
