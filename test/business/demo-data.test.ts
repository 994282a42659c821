import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { demoSeedStatements } from "../../scripts/demo-data.ts";

async function count(sql: string): Promise<number> {
  return (await env.DB.prepare(sql).first<{ n: number }>())?.n ?? 0;
}

describe("the demo data", () => {
  it("has 张三, 领子 and piece records this month and in March in both workshops", async () => {
    expect(await count("SELECT COUNT(*) AS n FROM employees WHERE name = '张三'")).toBe(2);
    expect(await count("SELECT COUNT(*) AS n FROM processes WHERE name = '上领子'")).toBe(2);
    for (const tenant of ["t-jinxiu", "t-other"]) {
      expect(
        await count(`SELECT COUNT(DISTINCT substr(work_date, 1, 7)) AS n FROM piece_records WHERE tenant_id = '${tenant}'`),
      ).toBeGreaterThanOrEqual(3);
      expect(
        await count(`SELECT COUNT(*) AS n FROM piece_records WHERE tenant_id = '${tenant}' AND substr(work_date, 6, 2) = '03'`),
      ).toBeGreaterThan(0);
    }
  });

  it("links each demo staff account to its employee record, and nobody else's", async () => {
    const { results } = await env.DB.prepare(
      "SELECT user_id, id, name FROM employees WHERE user_id IS NOT NULL ORDER BY user_id",
    ).all();
    expect(results).toEqual([
      { user_id: "u-staff", id: "e-jx-lijuan", name: "李娟" },
      { user_id: "u-staff2", id: "e-jx-zhangmin", name: "张敏" },
    ]);
  });

  it("loads again without changing or deleting anything a user added or edited", async () => {
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO api_keys (id, tenant_id, user_id, name, prefix, key_hash) VALUES ('k-user-made', 't-jinxiu', 'u-boss', 'mine', 'wft_x', 'hash-user-made')",
      ),
      env.DB.prepare("UPDATE processes SET unit_price_cents = 99 WHERE tenant_id = 't-jinxiu' AND name = '上领子'"),
      env.DB.prepare("UPDATE tenants SET time_zone = 'Europe/Paris' WHERE id = 't-other'"),
      env.DB.prepare(
        "INSERT INTO employees (id, tenant_id, name, employee_no) VALUES ('e-user-made', 't-jinxiu', '新员工', '900')",
      ),
    ]);
    const records = await count("SELECT COUNT(*) AS n FROM piece_records");
    await env.DB.batch((await demoSeedStatements()).map((sql) => env.DB.prepare(sql)));
    expect(await count("SELECT COUNT(*) AS n FROM api_keys WHERE id = 'k-user-made'")).toBe(1);
    expect(await count("SELECT unit_price_cents AS n FROM processes WHERE tenant_id = 't-jinxiu' AND name = '上领子'")).toBe(99);
    expect(await count("SELECT COUNT(*) AS n FROM tenants WHERE id = 't-other' AND time_zone = 'Europe/Paris'")).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM employees WHERE id = 'e-user-made'")).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM piece_records")).toBe(records);
  });
});
