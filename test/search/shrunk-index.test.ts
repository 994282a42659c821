import { describe, expect, it } from "vitest";
import { keys } from "../fixtures.ts";
import { call } from "../helpers.ts";

// A file of its own: the isolate must see this workshop's index large, then small, with no other
// test's chunks in it.
describe("keyword search on an index that shrinks", () => {
  it("still matches once a large index has shrunk below the size where common terms are left out", async () => {
    const kb = await (
      await call("/api/knowledge-bases", { method: "POST", key: keys.boss, body: JSON.stringify({ name: "缩小的索引" }) })
    ).json<{ id: string }>();
    const upload = async (filename: string, content: string) => {
      const res = await call(`/api/knowledge-bases/${kb.id}/documents`, {
        method: "POST",
        key: keys.boss,
        body: JSON.stringify({ filename, content }),
      });
      expect(res.status).toBe(201);
      return (await res.json<{ document: { id: string } }>()).document;
    };
    const sections = Array.from({ length: 1100 }, (_, i) => `## 第${i}节\n\n仓库盘点记录，编号${i}。`);
    const big = await upload("log.md", sections.join("\n\n"));
    await upload("boiler.md", "# 锅炉\n\n锅炉房的蒸汽压力每天检查两次。");
    const ask = async () => {
      const res = await call("/api/v1/knowledge-search", {
        method: "POST",
        key: keys.staff,
        body: JSON.stringify({ question: "锅炉蒸汽压力", knowledge_base_ids: [kb.id], search_mode: "keyword", min_score: 0 }),
      });
      return (await res.json<{ results: { content: string }[] }>()).results;
    };
    // This isolate now remembers a large index…
    expect((await ask())[0]?.content).toContain("蒸汽压力");
    const deleted = await call(`/api/knowledge-bases/${kb.id}/documents/${big.id}`, { method: "DELETE", key: keys.boss });
    expect(deleted.status).toBe(200);
    // …and must not skip the match when the index turns out small.
    expect((await ask())[0]?.content).toContain("蒸汽压力");
  });
});
