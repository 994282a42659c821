import { describe, expect, it } from "vitest";
import { changesData } from "../../src/placement/fence.ts";
import { DIRECTORY_TABLES, isInternalTable, tableLayouts, WORKSHOP_TABLES } from "../../src/placement/tables.ts";
import { dbOf } from "../fixtures.ts";

describe("the tables a move knows", () => {
  it("name every table of the schema as the workshop's or the directory's", async () => {
    const { results } = await dbOf("t-jinxiu")
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all<{ name: string }>();
    const unknown = results
      .map((r) => r.name)
      .filter((name) => !isInternalTable(name) && !DIRECTORY_TABLES.has(name) && !Object.hasOwn(WORKSHOP_TABLES, name));
    expect(unknown).toEqual([]);
  });

  it("order parents before children and page chunks by their id, not their shard's rowid", async () => {
    const layouts = await tableLayouts(dbOf("t-jinxiu"));
    const at = (name: string) => layouts.findIndex((t) => t.name === name);
    expect(at("tenants")).toBe(0);
    const pairs: [string, string][] = [
      ["knowledge_bases", "documents"],
      ["employees", "piece_records"],
      ["orders", "piece_records"],
      ["chats", "chat_messages"],
    ];
    for (const [parent, child] of pairs) {
      expect(at(parent), `${parent} before ${child}`).toBeLessThan(at(child));
    }
    const chunks = layouts.find((t) => t.name === "chunks");
    expect(chunks?.key).toEqual(["id"]);
    expect(chunks?.columns).not.toContain("rowid");
    expect(layouts.find((t) => t.name === "tenants")?.columns).not.toContain("shard");
  });
});

describe("what counts as a write while a workshop is fenced", () => {
  it("reads only plain SELECTs and WITH … SELECTs", () => {
    expect(changesData("SELECT * FROM chunks")).toBe(false);
    expect(changesData("  with x AS (SELECT 1) SELECT * FROM x")).toBe(false);
    expect(changesData("SELECT updated_at, deleted FROM chats")).toBe(false);
    for (const sql of [
      "INSERT INTO chats VALUES (1)",
      "UPDATE orders SET status = 'x'",
      "DELETE FROM chunks",
      "WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x",
      "CREATE VIRTUAL TABLE fts_1 USING fts5(terms)",
      "PRAGMA foreign_keys = OFF",
    ]) {
      expect(changesData(sql), sql).toBe(true);
    }
  });
});
