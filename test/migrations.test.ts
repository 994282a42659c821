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
