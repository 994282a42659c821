import { notFound } from "../errors.ts";
import type { PassageView } from "../shapes.ts";

/**
 * A passage of the tenant's knowledge base by its chunk id, with its document's title and its
 * base's name. Not-found (404) alike for another tenant's, another base's and an unknown one, so
 * an id says nothing about what exists elsewhere.
 */
export async function readPassage({
  db,
  tenantId,
  kbId,
  chunkId,
}: {
  db: D1Database;
  tenantId: string;
  kbId: string;
  chunkId: string;
}): Promise<PassageView> {
  const passage = await db
    .prepare(
      `SELECT c.id, c.kb_id, k.name AS kb_name, c.document_id, d.title AS document_title, d.filename, c.heading_path, c.content, c.page, c.sheet
         FROM chunks c
         JOIN documents d ON d.id = c.document_id AND d.tenant_id = c.tenant_id
         JOIN knowledge_bases k ON k.id = c.kb_id AND k.tenant_id = c.tenant_id
        WHERE c.id = ?1 AND c.kb_id = ?2 AND c.tenant_id = ?3 AND d.status = 'ready'`,
    )
    .bind(chunkId, kbId, tenantId)
    .first<PassageView>();
  if (!passage) throw notFound(`No passage '${chunkId}' in this knowledge base.`);
  return passage;
}
