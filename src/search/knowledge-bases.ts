import { conflict, notFound } from "../errors.ts";
import type { SearchBackends } from "./backends.ts";
import { ensureKeywordTable, keywordTable } from "./keyword-index.ts";
import { removeVectorsQuietly } from "./vector-index.ts";

export type KnowledgeBaseType = "document" | "faq";

export interface KnowledgeBase {
  id: string;
  name: string;
  description: string;
  type: KnowledgeBaseType;
  created_at: string;
  updated_at: string;
  document_count: number;
  chunk_count: number;
}

const COLUMNS = "id, name, description, type, created_at, updated_at";

/**
 * The tenant's knowledge bases, by name, with how many ready documents and chunks each holds: one
 * statement, as every `list_knowledge_bases` call and knowledge-base page reads it.
 */
export async function listKnowledgeBases({ db, tenantId }: { db: D1Database; tenantId: string }): Promise<KnowledgeBase[]> {
  const { results } = await db
    .prepare(
      `SELECT k.id, k.name, k.description, k.type, k.created_at, k.updated_at,
              COALESCE(c.documents, 0) AS document_count, COALESCE(c.chunks, 0) AS chunk_count
         FROM knowledge_bases k
         LEFT JOIN (SELECT kb_id, COUNT(*) AS documents, SUM(chunk_count) AS chunks FROM documents
                     WHERE tenant_id = ?1 AND status = 'ready' GROUP BY kb_id) c ON c.kb_id = k.id
        WHERE k.tenant_id = ?1
        ORDER BY k.name`,
    )
    .bind(tenantId)
    .all<KnowledgeBase>();
  return results;
}

/** One of the tenant's knowledge bases, or a 404. */
export async function getKnowledgeBase({
  db,
  tenantId,
  id,
}: {
  db: D1Database;
  tenantId: string;
  id: string;
}): Promise<KnowledgeBase> {
  const kb = (await listKnowledgeBases({ db, tenantId })).find((k) => k.id === id);
  if (!kb) throw notFound(`No knowledge base '${id}' in your workshop.`);
  return kb;
}

const nameTaken = (name: string) => conflict(`A knowledge base named '${name}' already exists in your workshop.`);

/**
 * Creates a knowledge base; names are unique within a tenant. One conditional statement, so two
 * concurrent creations of one name get one 201 and one 409, never a constraint failure.
 */
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
  description?: string | undefined;
  type?: KnowledgeBaseType | undefined;
}): Promise<KnowledgeBase> {
  const kb = await db
    .prepare(
      `INSERT INTO knowledge_bases (id, tenant_id, name, description, type) VALUES (?1, ?2, ?3, ?4, ?5)
       ON CONFLICT (tenant_id, name) DO NOTHING RETURNING ${COLUMNS}`,
    )
    .bind(crypto.randomUUID(), tenantId, name, description, type)
    .first<Omit<KnowledgeBase, "document_count" | "chunk_count">>();
  if (!kb) throw nameTaken(name);
  return { ...kb, document_count: 0, chunk_count: 0 };
}

/** Renames or re-describes a knowledge base; a name another one holds is a 409, even under concurrency. */
export async function updateKnowledgeBase({
  db,
  tenantId,
  id,
  name,
  description,
}: {
  db: D1Database;
  tenantId: string;
  id: string;
  name?: string | undefined;
  description?: string | undefined;
}): Promise<KnowledgeBase> {
  await getKnowledgeBase({ db, tenantId, id });
  const updated = await db
    .prepare(
      `UPDATE OR IGNORE knowledge_bases SET name = COALESCE(?3, name), description = COALESCE(?4, description),
         updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1 AND tenant_id = ?2 RETURNING id`,
    )
    .bind(id, tenantId, name ?? null, description ?? null)
    .first();
  // UPDATE OR IGNORE skips the row when the new name is taken; a missing row was deleted meanwhile.
  if (!updated) {
    await getKnowledgeBase({ db, tenantId, id });
    throw nameTaken(name as string);
  }
  return getKnowledgeBase({ db, tenantId, id });
}

/**
 * Deletes a knowledge base with its documents, chunks and keyword rows in one batch, then the
 * vectors of exactly the chunks that batch deleted: an upload landing meanwhile either lands before
 * (and is deleted with the rest) or finds the knowledge base gone (a 404), never orphans vectors.
 */
export async function deleteKnowledgeBase({
  db,
  backends,
  tenantId,
  id,
}: {
  db: D1Database;
  backends: SearchBackends;
  tenantId: string;
  id: string;
}): Promise<void> {
  await getKnowledgeBase({ db, tenantId, id });
  const table = await keywordTable(tenantId);
  await ensureKeywordTable(db, table);
  const [, deletedChunks] = await db.batch([
    db
      .prepare(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM chunks WHERE kb_id = ?1 AND tenant_id = ?2)`)
      .bind(id, tenantId),
    db.prepare("DELETE FROM chunks WHERE kb_id = ?1 AND tenant_id = ?2 RETURNING id").bind(id, tenantId),
    db.prepare("DELETE FROM documents WHERE kb_id = ?1 AND tenant_id = ?2").bind(id, tenantId),
    db.prepare("DELETE FROM knowledge_bases WHERE id = ?1 AND tenant_id = ?2").bind(id, tenantId),
  ]);
  const ids = ((deletedChunks?.results ?? []) as { id: string }[]).map((r) => r.id);
  await removeVectorsQuietly(backends.vectorIndex, tenantId, ids, "deleted_knowledge_base");
}
