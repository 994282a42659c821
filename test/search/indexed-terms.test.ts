import { describe, expect, it } from "vitest";
import { keys } from "../fixtures.ts";
import { call } from "../helpers.ts";

describe("query terms as the keyword index holds them", () => {
  it("finds a Greek word ending in final sigma, which the index stores with σ", async () => {
    const kb = await (
      await call("/api/knowledge-bases", { method: "POST", key: keys.boss, body: JSON.stringify({ name: "希腊文" }) })
    ).json<{ id: string }>();
    const upload = await call(`/api/knowledge-bases/${kb.id}/documents`, {
      method: "POST",
      key: keys.boss,
      body: JSON.stringify({ filename: "greek.md", content: "# Λεξικό\n\nΟ λόγος της εταιρείας είναι σαφής." }),
    });
    expect(upload.status).toBe(201);
    const res = await call("/api/v1/knowledge-search", {
      method: "POST",
      key: keys.staff,
      body: JSON.stringify({ question: "λόγος", knowledge_base_ids: [kb.id], search_mode: "keyword", min_score: 0 }),
    });
    const { results } = await res.json<{ results: { content: string; score: number }[] }>();
    expect(results[0]?.content).toContain("λόγος");
    expect(results[0]?.score).toBeGreaterThan(0.5);
  });
});
