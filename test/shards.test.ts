import { env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { MIGRATIONS } from "../src/schema.ts";
import { forgetSchemaChecks, shardsOf } from "../src/services.ts";
import { dbOf, keys } from "./fixtures.ts";
import { call, callJson } from "./helpers.ts";

const count = async (db: D1Database, sql: string, ...values: unknown[]) =>
  (
    await db
      .prepare(sql)
      .bind(...values)
      .first<{ n: number }>()
  )?.n ?? 0;

describe("workshops on shards", () => {
  afterEach(() => forgetSchemaChecks());

  it("run on two shards besides the directory, as npm run dev does", () => {
    expect([...shardsOf(env).keys()]).toEqual(["DB", "SHARD_1", "SHARD_2"]);
  });

  it("write each workshop's data only to its own shard", async () => {
    for (const [key, tenant, own, other] of [
      [keys.boss, "t-jinxiu", "SHARD_1", "SHARD_2"],
      [keys.otherBoss, "t-other", "SHARD_2", "SHARD_1"],
    ] as const) {
      const kb = await callJson("/api/knowledge-bases", {
        method: "POST",
        key,
        body: JSON.stringify({ name: `路由-${tenant}` }),
      });
      expect(kb.status).toBe(201);
      const doc = await call(`/api/knowledge-bases/${kb.body.id}/documents`, {
        method: "POST",
        key,
        body: JSON.stringify({ filename: "route.md", content: "# 路由\n\n这份文件只在本车间的分片上。" }),
      });
      expect(doc.status).toBe(201);
      const shards = shardsOf(env);
      const where = "SELECT COUNT(*) AS n FROM knowledge_bases WHERE id = ?1";
      expect(await count(shards.get(own) as D1Database, where, kb.body.id)).toBe(1);
      expect(await count(shards.get(other) as D1Database, where, kb.body.id)).toBe(0);
      expect(await count(env.DB, where, kb.body.id)).toBe(0);
      expect(await count(dbOf(tenant), "SELECT COUNT(*) AS n FROM chunks WHERE kb_id = ?1", kb.body.id)).toBeGreaterThan(0);
    }
  });

  it("keep the directory's people apart from every workshop's data", async () => {
    for (const shard of ["SHARD_1", "SHARD_2"]) {
      const db = shardsOf(env).get(shard) as D1Database;
      expect(await count(db, "SELECT COUNT(*) AS n FROM users")).toBe(0);
      expect(await count(db, "SELECT COUNT(*) AS n FROM api_keys")).toBe(0);
    }
    expect(await count(env.DB, "SELECT COUNT(*) AS n FROM piece_records")).toBe(0);
  });

  it("expect exactly the migrations in migrations/, in order", () => {
    expect([...MIGRATIONS]).toEqual(env.TEST_MIGRATIONS.map((m) => m.name));
  });

  it("refuse a workshop whose shard lacks a migration with 503 naming it, and say so at /healthz", async () => {
    const shard = dbOf("t-other");
    const last = MIGRATIONS[MIGRATIONS.length - 1] as string;
    await shard.prepare("DELETE FROM d1_migrations WHERE name = ?1").bind(last).run();
    forgetSchemaChecks();
    const refused = await callJson("/api/knowledge-bases", { key: keys.otherBoss });
    expect(refused.status).toBe(503);
    expect(refused.body.error).toMatchObject({ code: "schema_behind", details: { database: "SHARD_2", missing: [last] } });
    // Workshops on current databases are served as usual.
    expect((await call("/api/knowledge-bases", { key: keys.boss })).status).toBe(200);
    const health = await callJson("/healthz");
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({
      ok: false,
      status: "schema_behind",
      databases: { SHARD_2: { missing_migrations: [last] } },
    });
    expect(health.body.databases.SHARD_1).toEqual({ ok: true, missing_migrations: [] });
    // Once it is applied (as `npm run dev` or the deploy does), the workshop is served again.
    await shard.prepare("INSERT INTO d1_migrations (name) VALUES (?1)").bind(last).run();
    forgetSchemaChecks();
    expect((await call("/api/knowledge-bases", { key: keys.otherBoss })).status).toBe(200);
    expect((await call("/healthz")).status).toBe(200);
  });
});
