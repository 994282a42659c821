import { describe, expect, it } from "vitest";
import { keys } from "../fixtures.ts";
import { call } from "../helpers.ts";
import { newKnowledgeBase, uploadSections } from "./sections.ts";

describe("query terms as the keyword index holds them", () => {
  it("finds a Greek word ending in final sigma, which the index stores with σ", async () => {
    const kb = await newKnowledgeBase("希腊文");
    await uploadSections(kb, "greek.md", ["Ο λόγος της εταιρείας είναι σαφής."]);
    const question = { question: "λόγος", knowledge_base_ids: [kb], search_mode: "keyword", min_score: 0 };
    const res = await call("/api/v1/knowledge-search", { method: "POST", key: keys.staff, body: JSON.stringify(question) });
    const { results } = await res.json<{ results: { content: string; score: number }[] }>();
    expect(results[0]?.content).toContain("λόγος");
    expect(results[0]?.score).toBeGreaterThan(0.5);
  });
});
