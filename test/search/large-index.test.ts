import { describe, expect, it } from "vitest";
import { forgetKeywordTables } from "../../src/search/keyword-index.ts";
import { keys } from "../fixtures.ts";
import { call } from "../helpers.ts";
import { newKnowledgeBase, uploadSections } from "./sections.ts";

describe("keyword search on a large index", () => {
  it("leaves common terms out of the match from the first search on, so results never depend on what the isolate has seen", async () => {
    const kb = await (
      await call("/api/knowledge-bases", { method: "POST", key: keys.boss, body: JSON.stringify({ name: "大索引" }) })
    ).json<{ id: string }>();
    const sections = Array.from({ length: 1100 }, (_, i) => `## 第${i}节\n\n车间日常记录，编号${i}。`);
    sections.splice(700, 0, "## 特别说明\n\n车间日常记录：锅炉房的蒸汽压力每天检查两次。");
    const upload = await call(`/api/knowledge-bases/${kb.id}/documents`, {
      method: "POST",
      key: keys.boss,
      body: JSON.stringify({ filename: "log.md", content: `# 记录\n\n${sections.join("\n\n")}` }),
    });
    expect(upload.status).toBe(201);
    expect((await upload.json<{ document: { chunk_count: number } }>()).document.chunk_count).toBeGreaterThan(1000);

    const ask = async () => {
      const res = await call("/api/v1/knowledge-search", {
        method: "POST",
        key: keys.staff,
        body: JSON.stringify({
          question: "车间日常记录里锅炉蒸汽压力",
          knowledge_base_ids: [kb.id],
          search_mode: "keyword",
          min_score: 0,
        }),
      });
      return (await res.json<{ results: { id: string; content: string; score: number }[] }>()).results;
    };
    // The first search learns the index is large as it runs; the second knows it beforehand.
    const first = await ask();
    const second = await ask();
    expect(first[0]?.content).toContain("锅炉房的蒸汽压力");
    expect(first[0]?.score).toBeGreaterThan(0.5);
    // Calibration reads the whole candidate list, so both must have matched the same chunks.
    expect(second).toEqual(first);
  });

  it("counts a term again once the index has changed, so a term made common since is left out at once", async () => {
    const kb = { id: await newKnowledgeBase("变化的大索引") };
    const upload = (filename: string, sections: string[]) => uploadSections(kb.id, filename, sections);
    await upload("log.md", [
      ...Array.from({ length: 1100 }, (_, i) => `## 第${i}节\n\n仓库盘点记录，编号${i}。`),
      "## 染缸\n\n染缸温度过高时先关蒸汽阀。",
    ]);
    const ask = async () => {
      const res = await call("/api/v1/knowledge-search", {
        method: "POST",
        key: keys.staff,
        body: JSON.stringify({ question: "染缸蒸汽阀", knowledge_base_ids: [kb.id], search_mode: "keyword", min_score: 0 }),
      });
      return (await res.json<{ results: { id: string; content: string; score: number }[] }>()).results;
    };
    expect((await ask())[0]?.content).toContain("染缸温度");
    // 蒸汽 and 阀 were rare; in 700 more chunks they are common, and must be left out of the match.
    await upload(
      "valves.md",
      Array.from({ length: 700 }, (_, i) => `## 阀门${i}\n\n蒸汽阀编号${i}。`),
    );
    const kept = await ask();
    forgetKeywordTables();
    expect(kept).toEqual(await ask());
    expect(kept[0]?.content).toContain("染缸温度");
  });
});
