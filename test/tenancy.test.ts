import { describe, expect, it } from "vitest";
import { keys } from "./fixtures.ts";
import { call } from "./helpers.ts";

describe("tenant isolation", () => {
  it("never shows one workshop's knowledge bases to another", async () => {
    const created = await call("/api/knowledge-bases", {
      method: "POST",
      key: keys.boss,
      body: JSON.stringify({ name: "锦绣内部手册" }),
    });
    expect(created.status).toBe(201);

    const other = await (await call("/api/knowledge-bases", { key: keys.otherBoss })).json<{
      knowledge_bases: { name: string }[];
    }>();
    expect(other.knowledge_bases.map((kb) => kb.name)).not.toContain("锦绣内部手册");

    const own = await (await call("/api/knowledge-bases", { key: keys.staff })).json<{
      knowledge_bases: { name: string }[];
    }>();
    expect(own.knowledge_bases.map((kb) => kb.name)).toContain("锦绣内部手册");
  });

  it("lets two workshops use the same knowledge-base name", async () => {
    const body = JSON.stringify({ name: "质量标准" });
    expect((await call("/api/knowledge-bases", { method: "POST", key: keys.boss, body })).status).toBe(201);
    expect((await call("/api/knowledge-bases", { method: "POST", key: keys.otherBoss, body })).status).toBe(201);
    expect((await call("/api/knowledge-bases", { method: "POST", key: keys.boss, body })).status).toBe(409);
  });

  it("does not let staff create knowledge bases", async () => {
    const res = await call("/api/knowledge-bases", { method: "POST", key: keys.staff, body: JSON.stringify({ name: "x" }) });
    expect(res.status).toBe(403);
  });
});
