import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { demoSeedStatements } from "../../scripts/demo-data.ts";
import { holdAction } from "../../src/actions/actions.ts";
import { hashApiKey, visiblePrefix } from "../../src/auth/api-keys.ts";
import { beginConsultation } from "../../src/consult/sessions.ts";
import { keywordTable } from "../../src/search/keyword-index.ts";
import { shardsOf } from "../../src/services.ts";
import { applyDemoSeed, dbOf, keys as devKeys, testServices } from "../fixtures.ts";

import { call } from "../helpers.ts";
import { storedVectorIds } from "../vector-rows.ts";

const databaseOf = (shard: string) => shardsOf(env).get(shard) as D1Database;

const GUIDE = "# 裁剪手册\n\n## 排料\n\n排料时先铺面料，再按纸样排版。\n\n## 验片\n\n裁好的衣片要逐片检查尺寸。\n";

async function newKb(name: string, key: string = devKeys.boss): Promise<string> {
  const res = await call("/api/knowledge-bases", { method: "POST", key, body: JSON.stringify({ name }) });
  expect(res.status).toBe(201);
  return (await res.json<{ id: string }>()).id;
}

async function upload(kbId: string, filename: string, content: string, key: string = devKeys.boss) {
  const res = await call(`/api/knowledge-bases/${kbId}/documents`, {
    method: "POST",
    key,
    body: JSON.stringify({ filename, content }),
  });
  expect(res.status).toBe(201);
  return (await res.json<{ document: { id: string; chunk_count: number } }>()).document;
}

/** What both indexes hold for a tenant: all its keyword rows, and how many of `chunkIds` have vectors. */
async function indexed(tenantId: string, chunkIds: string[], db = dbOf(tenantId)) {
  const table = await keywordTable(tenantId);
  const fts = await db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>();
  const vectors = (await storedVectorIds(tenantId, "id IN (SELECT value FROM json_each(?))", JSON.stringify(chunkIds))).length;
  return { keywordRows: fts?.n ?? 0, vectors };
}

async function chunkIdsOf(documentId: string, tenantId = "t-jinxiu", db = dbOf(tenantId)): Promise<string[]> {
  const { results } = await db.prepare("SELECT id FROM chunks WHERE document_id = ?").bind(documentId).all<{ id: string }>();
  return results.map((r) => r.id);
}

/** A workshop of its own on `shard`, with an admin and a boss, so deleting it touches no other test. */
async function newWorkshop(id: string, shard = "DB") {
  if (shard !== "DB") await databaseOf(shard).prepare("INSERT INTO tenants (id, name) VALUES (?1, ?1)").bind(id).run();
  const statements = [
    env.DB.prepare("INSERT INTO tenants (id, name, shard) VALUES (?1, ?1, ?2)").bind(id, shard),
    env.DB.prepare("INSERT INTO users (id, tenant_id, name, role) VALUES (?1, ?2, 'admin', 'admin')").bind(`${id}-admin`, id),
    env.DB.prepare("INSERT INTO users (id, tenant_id, name, role) VALUES (?1, ?2, 'boss', 'boss')").bind(`${id}-boss`, id),
  ];
  for (const role of ["admin", "boss"]) {
    const key = `${id}-${role}-key`;
    statements.push(
      env.DB.prepare(
        "INSERT INTO api_keys (id, tenant_id, user_id, name, prefix, key_hash) VALUES (?1, ?2, ?3, 'test', ?4, ?5)",
      ).bind(`k-${id}-${role}`, id, `${id}-${role}`, visiblePrefix(key), await hashApiKey(key)),
    );
  }
  await env.DB.batch(statements);
  return { admin: `${id}-admin-key`, boss: `${id}-boss-key` };
}

describe("deleting removes keyword rows and vectors too", () => {
  it("deletes a document from both indexes, leaving its neighbours", async () => {
    const kb = await newKb("删除-文档");
    const gone = await upload(kb, "a.md", GUIDE);
    const kept = await upload(kb, "b.md", GUIDE.replace("裁剪", "缝纫"));
    const goneIds = await chunkIdsOf(gone.id);
    const keptIds = await chunkIdsOf(kept.id);
    const before = await indexed("t-jinxiu", goneIds);
    expect(before.vectors).toBe(goneIds.length);
    const res = await call(`/api/knowledge-bases/${kb}/documents/${gone.id}`, { method: "DELETE", key: devKeys.boss });
    expect(res.status).toBe(200);
    const table = await keywordTable("t-jinxiu");
    const rowsOf = async (ids: string[]) =>
      (
        await dbOf("t-jinxiu")
          .prepare(
            `SELECT COUNT(*) AS n FROM ${table} WHERE rowid IN (SELECT rowid FROM chunks WHERE id IN (SELECT value FROM json_each(?1)))`,
          )
          .bind(JSON.stringify(ids))
          .first<{ n: number }>()
      )?.n;
    expect(before.keywordRows - (await indexed("t-jinxiu", goneIds)).keywordRows).toBe(goneIds.length);
    expect((await indexed("t-jinxiu", goneIds)).vectors).toBe(0);
    expect(await rowsOf(keptIds)).toBe(keptIds.length);
    expect((await indexed("t-jinxiu", keptIds)).vectors).toBe(keptIds.length);
  });

  it("deletes a knowledge base from both indexes", async () => {
    const kb = await newKb("删除-知识库");
    const doc = await upload(kb, "a.md", GUIDE);
    const ids = await chunkIdsOf(doc.id);
    const before = await indexed("t-jinxiu", ids);
    expect(before.vectors).toBe(ids.length);
    expect((await call(`/api/knowledge-bases/${kb}`, { method: "DELETE", key: devKeys.boss })).status).toBe(200);
    const after = await indexed("t-jinxiu", ids);
    expect(before.keywordRows - after.keywordRows).toBe(ids.length);
    expect(after.vectors).toBe(0);
  });

  it.each([
    ["t-closing", "DB"],
    ["t-closing-shard", "SHARD_2"],
  ])(
    "lets a workshop's admin delete the workshop (%s, on %s): its rows, keyword rows, vectors and keys, and nothing of others",
    async (W, shard) => {
      const keys = await newWorkshop(W, shard);
      const db = databaseOf(shard);
      const tree = JSON.stringify({ id: "closing-tree", title: "T", root: "a", nodes: { a: { response: "A" } } });
      const put = await call("/api/consult/trees", {
        method: "PUT",
        key: keys.admin,
        body: JSON.stringify({ file_name: "closing-tree.json", content: tree }),
      });
      expect(put.status).toBe(200);
      const kb = await newKb("要关闭的知识库", keys.boss);
      const doc = await upload(kb, "a.md", GUIDE, keys.boss);
      const ids = await chunkIdsOf(doc.id, W, db);
      expect(await indexed(W, ids, db)).toEqual({ keywordRows: ids.length, vectors: ids.length });
      await db.batch([
        db
          .prepare("INSERT INTO employees (id, tenant_id, person_id, name, employee_no) VALUES ('e-c', ?1, ?2, '老板', '001')")
          .bind(W, `${W}-boss`),
        db.prepare("INSERT INTO styles (id, tenant_id, code, name) VALUES ('s-c', ?1, 'S1', '衬衫')").bind(W),
        db
          .prepare(
            "INSERT INTO processes (id, tenant_id, style_id, name, unit_price_cents) VALUES ('p-c', ?1, 's-c', '上领', 80)",
          )
          .bind(W),
        db
          .prepare(
            "INSERT INTO orders (id, tenant_id, order_no, customer, style_id, quantity, due_date) VALUES ('o-c', ?1, 'O1', '客户', 's-c', 10, '2026-12-01')",
          )
          .bind(W),
        db
          .prepare(
            "INSERT INTO piece_records (id, tenant_id, employee_id, process_id, order_id, quantity, unit_price_cents, work_date) VALUES ('r-c', ?1, 'e-c', 'p-c', 'o-c', 5, 80, '2026-11-25')",
          )
          .bind(W),
        db
          .prepare(
            "INSERT INTO payroll_adjustments (id, tenant_id, employee_id, month, kind, amount_cents, reason) VALUES ('a-c', ?1, 'e-c', '2026-11', 'allowance', 100, '补贴')",
          )
          .bind(W),
        db
          .prepare(
            "INSERT INTO business_audit (id, tenant_id, user_id, action_id, kind, entity_id, values_json) VALUES ('b-c', ?1, ?2, 'x', 'order', 'o-c', '{}')",
          )
          .bind(W, `${W}-boss`),
      ]);
      // A pending write and a consultation of its own, held in Durable Objects.
      const services = testServices(W, shard);
      const boss = { userId: `${W}-boss`, tenantId: W, role: "boss" as const };
      const prepared = { kind: "order", write: null, summary: "s", preview: [], ambiguities: [], needs: "boss" as const };
      const action = await holdAction({ actions: services.actions, user: boss, prepared });
      const session = await beginConsultation({ consult: services.consult, user: boss, userQuery: "跳针" });
      const storedIn = async <T extends Rpc.DurableObjectBranded>(ns: DurableObjectNamespace<T>, id: string) =>
        runInDurableObject(ns.get(ns.idFromString(id)), async (_object, state) => (await state.storage.list()).size);
      expect(await storedIn(env.PENDING_ACTION, action.action_id)).toBeGreaterThan(0);
      expect(await storedIn(env.CONSULT_SESSION, session.session_id)).toBeGreaterThan(0);
      const othersBefore = await dbOf("t-jinxiu").prepare("SELECT COUNT(*) AS n FROM chunks WHERE tenant_id = 't-jinxiu'").first<{
        n: number;
      }>();

      expect((await call(`/api/workshop?confirm=${W}`, { method: "DELETE", key: keys.boss })).status).toBe(403);
      expect((await call("/api/workshop?confirm=t-jinxiu", { method: "DELETE", key: keys.admin })).status).toBe(400);
      const res = await call(`/api/workshop?confirm=${W}`, { method: "DELETE", key: keys.admin });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ id: W, deleted: true, knowledge_bases: 1, documents: 1, chunks: ids.length });

      expect(await indexed(W, ids, db)).toEqual({ keywordRows: 0, vectors: 0 });
      expect(await storedIn(env.PENDING_ACTION, action.action_id)).toBe(0);
      expect(await storedIn(env.CONSULT_SESSION, session.session_id)).toBe(0);
      const tables = ["tenants", "users", "api_keys", "knowledge_bases", "documents", "chunks", "consult_trees", "employees"];
      for (const table of [
        ...tables,
        "styles",
        "processes",
        "orders",
        "piece_records",
        "payroll_adjustments",
        "business_audit",
      ]) {
        const column = table === "tenants" ? "id" : "tenant_id";
        for (const [name, database] of shardsOf(env)) {
          const row = await database
            .prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?1`)
            .bind(W)
            .first<{ n: number }>();
          expect(row?.n, `${table} on ${name}`).toBe(0);
        }
      }
      expect((await call("/api/knowledge-bases", { key: keys.boss })).status).toBe(401);
      const othersAfter = await dbOf("t-jinxiu").prepare("SELECT COUNT(*) AS n FROM chunks WHERE tenant_id = 't-jinxiu'").first<{
        n: number;
      }>();
      expect(othersAfter?.n).toBe(othersBefore?.n);
    },
  );
});

describe("seeding again", () => {
  it("keeps every knowledge base, document, index row and key a user created", async () => {
    const kb = await newKb("重启后还在");
    const doc = await upload(kb, "a.md", GUIDE);
    const ids = await chunkIdsOf(doc.id);
    const created = await call("/api/keys", { method: "POST", key: devKeys.boss, body: JSON.stringify({ name: "laptop" }) });
    const { key } = await created.json<{ key: string }>();
    const before = await indexed("t-jinxiu", ids);

    await applyDemoSeed(await demoSeedStatements());

    expect(await indexed("t-jinxiu", ids)).toEqual(before);
    const res = await call(`/api/knowledge-bases/${kb}/documents/${doc.id}`, { key: devKeys.boss });
    expect(await res.json()).toMatchObject({ status: "ready", chunk_count: ids.length });
    expect((await call("/api/knowledge-bases", { key })).status).toBe(200);
    const search = await call("/api/v1/knowledge-search", {
      method: "POST",
      key: devKeys.staff,
      body: JSON.stringify({ question: "排料", knowledge_base_ids: [kb], search_mode: "keyword" }),
    });
    expect((await search.json<{ results: unknown[] }>()).results.length).toBeGreaterThan(0);
  });
});

describe("local state left behind by older versions", () => {
  it("indexes a new document even when the keyword index holds a row for the next chunk rowid", async () => {
    const kb = await newKb("旧状态");
    await upload(kb, "first.md", GUIDE);
    const table = await keywordTable("t-jinxiu");
    const next = await dbOf("t-jinxiu").prepare("SELECT MAX(rowid) + 1 AS r FROM chunks").first<{ r: number }>();
    await dbOf("t-jinxiu").prepare(`INSERT INTO ${table} (rowid, terms) VALUES (?1, 'orphan')`).bind(next?.r).run();
    const doc = await upload(kb, "second.md", GUIDE.replace("裁剪", "整烫"));
    const rows = await dbOf("t-jinxiu")
      .prepare(`SELECT terms FROM ${table} WHERE rowid = ?1`)
      .bind(next?.r)
      .first<{ terms: string }>();
    expect(rows?.terms).not.toBe("orphan");
    expect(doc.chunk_count).toBeGreaterThan(0);
  });
});
