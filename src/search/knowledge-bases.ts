import { returningRow } from "../db.ts";
import { conflict } from "../errors.ts";

export type KnowledgeBaseType = "document" | "faq";

export interface KnowledgeBase {
  id: string;
  name: string;
  description: string;
  type: KnowledgeBaseType;
  created_at: string;
  updated_at: string;
}

const COLUMNS = "id, name, description, type, created_at, updated_at";

/** The tenant's knowledge bases, by name. */
export async function listKnowledgeBases({ db, tenantId }: { db: D1Database; tenantId: string }): Promise<KnowledgeBase[]> {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM knowledge_bases WHERE tenant_id = ?1 ORDER BY name`)
    .bind(tenantId)
    .all<KnowledgeBase>();
  return results;
}

/** Creates a knowledge base; names are unique within a tenant. */
export async function createKnowledgeBase({
  db,
  tenantId,
  name,
  description = "",
  type = "document",
}: {
  db: D1Database;
  tenantId: string;
  name: string;
  description?: string;
  type?: KnowledgeBaseType;
}): Promise<KnowledgeBase> {
  const existing = await db
    .prepare(`SELECT id FROM knowledge_bases WHERE tenant_id = ?1 AND name = ?2`)
    .bind(tenantId, name)
    .first();
  if (existing) throw conflict(`A knowledge base named '${name}' already exists in your workshop.`);
  return returningRow<KnowledgeBase>(
    db
      .prepare(
        `INSERT INTO knowledge_bases (id, tenant_id, name, description, type) VALUES (?1, ?2, ?3, ?4, ?5) RETURNING ${COLUMNS}`,
      )
      .bind(crypto.randomUUID(), tenantId, name, description, type),
  );
}
