import { applyD1Migrations, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";

describe("D1 migrations", () => {
  it("apply on an empty database and create every table", async () => {
    const tables = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all<{
      name: string;
    }>();
    const names = tables.results.map((t) => t.name);
    for (const table of [
      "tenants",
      "users",
      "api_keys",
      "knowledge_bases",
      "employees",
      "styles",
      "processes",
      "orders",
      "piece_records",
      "payroll_adjustments",
      "business_audit",
    ])
      expect(names).toContain(table);
  });

  it("are recorded, so applying them again changes nothing", async () => {
    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM d1_migrations").first<{ n: number }>();
    expect(before!.n).toBe(env.TEST_MIGRATIONS.length);
    await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
    const after = await env.DB.prepare("SELECT COUNT(*) AS n FROM d1_migrations").first<{ n: number }>();
    expect(after!.n).toBe(before!.n);
  });

  it("refuse a user with a role that does not exist", async () => {
    await expect(
      env.DB.prepare("INSERT INTO users (id, tenant_id, name, role) VALUES ('x', 't-jinxiu', 'x', 'owner')").run(),
    ).rejects.toThrow(/CHECK/);
  });
});

describe("the migration that takes workshop data apart from people (0024)", () => {
  it("keeps every chat, message and employee link of a database made before shards", async () => {
    const db = env.MIGRATION_TEST_DB;
    const before = env.TEST_MIGRATIONS.filter((m) => m.name < "0024");
    await applyD1Migrations(db, before);
    await db.batch([
      db.prepare("INSERT INTO tenants (id, name) VALUES ('t-old', '老车间')"),
      db.prepare("INSERT INTO users (id, tenant_id, name, role) VALUES ('u-old', 't-old', '老员工', 'staff')"),
      db.prepare(
        "INSERT INTO employees (id, tenant_id, user_id, name, employee_no) VALUES ('e-old', 't-old', 'u-old', '老员工', '001')",
      ),
      db.prepare("INSERT INTO chats (id, tenant_id, user_id, title) VALUES ('c-old', 't-old', 'u-old', '旧对话')"),
      db.prepare("INSERT INTO chat_messages (chat_id, id, seq, role, parts) VALUES ('c-old', 'm1', 1, 'user', '[]')"),
      db.prepare("INSERT INTO chat_messages (chat_id, id, seq, role, parts) VALUES ('c-old', 'm2', 2, 'assistant', '[]')"),
    ]);
    await applyD1Migrations(db, env.TEST_MIGRATIONS);
    const one = <T>(sql: string) => db.prepare(sql).first<T>();
    expect(await one("SELECT shard FROM tenants WHERE id = 't-old'")).toEqual({ shard: "DB" });
    expect(await one("SELECT person_id, user_id FROM employees WHERE id = 'e-old'")).toEqual({
      person_id: "u-old",
      user_id: null,
    });
    expect(await one("SELECT user_id, title FROM chats WHERE id = 'c-old'")).toEqual({ user_id: "u-old", title: "旧对话" });
    expect(await one("SELECT COUNT(*) AS n FROM chat_messages WHERE chat_id = 'c-old'")).toEqual({ n: 2 });
    // Chats no longer need their person in the same database (a shard has no people)...
    await db.prepare("INSERT INTO chats (id, tenant_id, user_id, title) VALUES ('c-new', 't-old', 'u-elsewhere', '新')").run();
    // ...and their messages still go with them.
    await db.prepare("DELETE FROM chats WHERE id = 'c-old'").run();
    expect(await one("SELECT COUNT(*) AS n FROM chat_messages WHERE chat_id = 'c-old'")).toEqual({ n: 0 });
  });
});
