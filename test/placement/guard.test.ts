import { describe, expect, it } from "vitest";
import { changesData, guardedDatabase, movingError } from "../../src/placement/fence.ts";
import { dbOf } from "../fixtures.ts";

describe("a database guarded before each write", () => {
  it("asks before every statement, alone or in a batch, and lets a refused write reach nothing", async () => {
    const db = dbOf("t-jinxiu");
    let moving = false;
    const asked: string[][] = [];
    const guarded = guardedDatabase(db, async (sqls) => {
      asked.push([...sqls]);
      if (moving && sqls.some(changesData)) throw movingError(60);
    });
    const count = async () =>
      (await db.prepare("SELECT COUNT(*) AS n FROM styles WHERE id = 's-guard'").first<{ n: number }>())?.n;
    const insert = "INSERT INTO styles (id, tenant_id, code, name) VALUES ('s-guard', 't-jinxiu', 'G1', '守卫')";
    moving = true;
    await expect(guarded.prepare(insert).run()).rejects.toThrow(/being moved/);
    await expect(guarded.batch([guarded.prepare("SELECT 1"), guarded.prepare(insert)])).rejects.toThrow(/being moved/);
    expect(await count()).toBe(0);
    // Reads go on while it is moving; writes once it is not.
    expect(await guarded.prepare("SELECT COUNT(*) AS n FROM styles").first()).toBeTruthy();
    moving = false;
    await guarded.prepare(insert).run();
    expect(await count()).toBe(1);
    expect(asked.some((sqls) => sqls.length === 2)).toBe(true);
    await db.prepare("DELETE FROM styles WHERE id = 's-guard'").run();
  });
});
