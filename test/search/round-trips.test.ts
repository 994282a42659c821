import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../src/config.ts";
import { AppError } from "../../src/errors.ts";
import { searchBackends } from "../../src/search/backends.ts";
import { forgetKeywordTables } from "../../src/search/keyword-index.ts";
import { forgetScopes } from "../../src/search/scope.ts";
import { type SearchMode, searchKnowledge } from "../../src/search/search.ts";
import { searchBindingsOf } from "../../src/services.ts";
import { dbOf, keys } from "../fixtures.ts";
import { call } from "../helpers.ts";
import { countingDb } from "./counting-db.ts";

const TENANT = "t-jinxiu";

async function newKb(name: string, filename: string, content: string): Promise<string> {
  const kb = await (await call("/api/knowledge-bases", { method: "POST", key: keys.boss, body: JSON.stringify({ name }) })).json<{
    id: string;
  }>();
  const res = await call(`/api/knowledge-bases/${kb.id}/documents`, {
    method: "POST",
    key: keys.boss,
    body: JSON.stringify({ filename, content }),
  });
  expect(res.status).toBe(201);
  return kb.id;
}

async function search(db: D1Database, query: string, mode: SearchMode, kbIds?: string[], seen = { vectorQueries: 0 }) {
  const backends = searchBackends(searchBindingsOf(env), readConfig(env));
  const vectorIndex = {
    ...backends.vectorIndex,
    upsert: backends.vectorIndex.upsert.bind(backends.vectorIndex),
    delete: backends.vectorIndex.delete.bind(backends.vectorIndex),
    query: (...args: Parameters<typeof backends.vectorIndex.query>) => {
      seen.vectorQueries++;
      return backends.vectorIndex.query(...args);
    },
  };
  const { results } = await searchKnowledge({
    db,
    backends: { ...backends, vectorIndex },
    tenantId: TENANT,
    request: { query, kbIds, mode, topK: 5, minScore: 0, rerank: true },
  });
  return { results, vectorQueries: seen.vectorQueries };
}

describe("a search's round trips", () => {
  it("reads scope, keyword matches and every candidate's chunk in one D1 round trip, after one vector query", async () => {
    await newKb("往返手册", "boiler.md", "# 锅炉\n\n锅炉房的蒸汽压力每天检查两次，压力过高时打开泄压阀。");
    await search(dbOf("t-jinxiu"), "锅炉蒸汽压力", "hybrid");
    for (const mode of ["hybrid", "keyword", "vector"] as const) {
      const { db, trips } = countingDb();
      const { results, vectorQueries } = await search(db, "锅炉蒸汽压力", mode);
      expect(results[0]?.content, mode).toContain("蒸汽压力");
      expect(trips(), mode).toBe(1);
      expect(vectorQueries, mode).toBe(mode === "keyword" ? 0 : 1);
    }
  });

  it("reads what it needs of a workshop this isolate has not searched yet in one round trip more, in every mode", async () => {
    await newKb("初次手册", "boiler.md", "# 锅炉\n\n锅炉房的蒸汽压力每天检查两次，压力过高时打开泄压阀。");
    for (const mode of ["hybrid", "keyword", "vector"] as const) {
      const warm = await search(dbOf("t-jinxiu"), "锅炉蒸汽压力", mode);
      forgetKeywordTables();
      forgetScopes();
      const { db, trips, sent } = countingDb();
      const { results } = await search(db, "锅炉蒸汽压力", mode);
      expect(results, mode).toEqual(warm.results);
      // The scope, the synonym row and whether the keyword table exists, then the search's own.
      expect(trips(), mode).toBe(2);
      expect(sent.filter((sql) => sql.startsWith("SELECT groups_json") || sql.includes("sqlite_master")).length, mode).toBe(2);
    }
  });

  it("searches a knowledge base created since the isolate last searched, in every mode", async () => {
    await search(dbOf("t-jinxiu"), "锅炉蒸汽压力", "hybrid");
    await newKb("往返新库", "loom.md", "# 织机\n\n提花织机的经线张力每班校准一次。");
    for (const mode of ["vector", "hybrid", "keyword"] as const) {
      const { db, trips } = countingDb();
      const { results } = await search(db, "提花织机经线张力", mode);
      expect(results[0]?.content, mode).toContain("经线张力");
      // The first search after the change reads the scope it did not expect, and runs again.
      expect(trips(), mode).toBe(mode === "vector" ? 2 : 1);
    }
  });

  it("refuses another workshop's knowledge base before asking the vector index about it", async () => {
    const foreign = await (
      await call("/api/knowledge-bases", { method: "POST", key: keys.otherBoss, body: JSON.stringify({ name: "别家的库" }) })
    ).json<{ id: string }>();
    await search(dbOf("t-jinxiu"), "锅炉蒸汽压力", "hybrid");
    const seen = { vectorQueries: 0 };
    const refused = search(dbOf("t-jinxiu"), "锅炉蒸汽压力", "hybrid", [foreign.id], seen);
    await expect(refused).rejects.toMatchObject({ code: "knowledge_base_not_found" });
    expect(seen.vectorQueries).toBe(0);
  });

  it("refuses a knowledge base deleted since the isolate last searched it", async () => {
    const kb = await newKb("往返将删", "dye.md", "# 染色\n\n活性染料染色前先做小样。");
    expect((await search(dbOf("t-jinxiu"), "活性染料小样", "hybrid", [kb])).results[0]?.content).toContain("小样");
    expect((await call(`/api/knowledge-bases/${kb}`, { method: "DELETE", key: keys.boss })).status).toBe(200);
    const refused = search(dbOf("t-jinxiu"), "活性染料小样", "hybrid", [kb]);
    await expect(refused).rejects.toBeInstanceOf(AppError);
    await expect(refused).rejects.toMatchObject({ code: "knowledge_base_not_found" });
  });

  it("matches a large index in the same round trip once the isolate knows its query terms' frequencies", async () => {
    const sections = Array.from({ length: 1100 }, (_, i) => `## 第${i}节\n\n仓库盘点记录，编号${i}。`);
    const kb = await newKb("往返大库", "log.md", `# 记录\n\n${sections.join("\n\n")}\n\n## 染缸\n\n染缸温度过高时先关蒸汽阀。`);
    const first = countingDb();
    const before = await search(first.db, "仓库里的染缸温度", "keyword", [kb]);
    // A new knowledge base: the first search found the scope moved and ran again.
    expect(first.trips()).toBeGreaterThan(1);
    const again = countingDb();
    const after = await search(again.db, "仓库里的染缸温度", "keyword", [kb]);
    expect(again.trips()).toBe(1);
    // Every term counted: the isolate writes the match's queries, and the statement counts nothing.
    expect(again.sent.filter((sql) => sql.includes("WITH matched"))).toEqual([]);
    expect(after.results).toEqual(before.results);
    expect(after.results[0]?.content).toContain("染缸温度");
  });

  it("matches a large index in the same round trip for a question with terms not counted yet, with the results a fresh count gives", async () => {
    const sections = Array.from({ length: 1100 }, (_, i) => `## 第${i}节\n\n仓库盘点记录，编号${i}。`);
    const kb = await newKb("新词大库", "log.md", `# 记录\n\n${sections.join("\n\n")}\n\n## 染缸\n\n染缸温度过高时先关蒸汽阀。`);
    await search(countingDb().db, "仓库里的染缸温度", "keyword", [kb]);
    const afresh = async (question: string, mode: SearchMode) => {
      forgetKeywordTables();
      return (await search(countingDb().db, question, mode, [kb])).results;
    };
    // New terms, each in one chunk or none, and one in every chunk (盘点): the statement that
    // counts them chooses the terms to match by the counts.
    for (const question of ["蒸汽阀温度过高怎么办", "盘点时染缸温度"]) {
      await search(countingDb().db, "仓库里的染缸温度", "keyword", [kb]);
      const counting = countingDb();
      const found = await search(counting.db, question, "keyword", [kb]);
      expect(counting.trips()).toBe(1);
      expect(found.results[0]?.content).toContain("染缸温度过高");
      expect(found.results).toEqual(await afresh(question, "keyword"));
    }
  });

  it("counts and matches again once the index has changed since the counts were kept, reading only content not read yet", async () => {
    const sections = Array.from({ length: 1100 }, (_, i) => `## 第${i}节\n\n仓库盘点记录，编号${i}。`);
    const kb = await newKb("变动大库", "log.md", `# 记录\n\n${sections.join("\n\n")}\n\n## 染缸\n\n染缸温度过高时先关蒸汽阀。`);
    await search(countingDb().db, "仓库里的染缸温度", "hybrid", [kb]);
    const upload = await call(`/api/knowledge-bases/${kb}/documents`, {
      method: "POST",
      key: keys.boss,
      body: JSON.stringify({ filename: "more.md", content: "# 补充\n\n染缸每周清洗一次，温度计每月校准。" }),
    });
    expect(upload.status).toBe(201);
    const counting = countingDb();
    const { results } = await search(counting.db, "染缸温度多久校准", "hybrid", [kb]);
    expect(counting.trips()).toBe(3);
    expect(results[0]?.content).toContain("温度计每月校准");
    expect(results.every((r) => r.content.length > 0)).toBe(true);
    forgetKeywordTables();
    expect(results).toEqual((await search(countingDb().db, "染缸温度多久校准", "hybrid", [kb])).results);
  });
});
