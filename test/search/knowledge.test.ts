import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../src/config.ts";
import { searchBackends } from "../../src/search/backends.ts";
import { ingestDocument } from "../../src/search/ingest.ts";
import { keywordTable } from "../../src/search/keyword-index.ts";
import { LocalVectorIndexClient } from "../../src/search/local-vector-index.ts";
import type { SearchResult } from "../../src/search/search.ts";
import { searchBindingsOf } from "../../src/services.ts";
import { dbOf, keys as devKeys } from "../fixtures.ts";
import { call, mcpClient } from "../helpers.ts";

type Result = Omit<SearchResult, "knowledge_base_id" | "heading_path" | "position">;

const GUIDE = `# 锦绣制衣系统使用手册

## 新建订单

在“订单”页面点击“新建订单”，填写客户、款号、数量和交货日期，然后保存。

## 设置工序单价

老板在“工序”页面为每个款式设置工序和单价，例如上领子每件0.8元。

## 登记计件

员工每天在“计件”页面登记完成的工序和数量，系统按单价自动计算工资。
`;

async function newKb(name: string, key = devKeys.boss): Promise<string> {
  const res = await call("/api/knowledge-bases", { method: "POST", key, body: JSON.stringify({ name }) });
  return (await res.json<{ id: string }>()).id;
}

async function upload(kbId: string, filename: string, content: string, key = devKeys.boss) {
  return call(`/api/knowledge-bases/${kbId}/documents`, { method: "POST", key, body: JSON.stringify({ filename, content }) });
}

async function search(body: Record<string, unknown>, key = devKeys.staff) {
  const res = await call("/api/v1/knowledge-search", { method: "POST", key, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json<{ results: Result[]; total_count: number; error?: { message: string } }>() };
}

describe("uploading documents", () => {
  it("indexes a markdown document by heading and finds it in every mode", async () => {
    const kb = await newKb("使用手册-1");
    const res = await upload(kb, "guide.md", GUIDE);
    expect(res.status).toBe(201);
    const { status, document } = await res.json<{
      status: string;
      document: { status: string; chunk_count: number; title: string };
    }>();
    expect(status).toBe("created");
    expect(document).toMatchObject({ status: "ready", chunk_count: 3, title: "锦绣制衣系统使用手册" });

    for (const search_mode of ["keyword", "vector", "hybrid"]) {
      const { body } = await search({ question: "怎么设置工序单价", knowledge_base_ids: [kb], search_mode, min_score: 0 });
      expect(body.results[0]?.content, search_mode).toContain("上领子每件0.8元");
      expect(body.results[0]).toMatchObject({ knowledge_title: "锦绣制衣系统使用手册", knowledge_filename: "guide.md" });
    }
  });

  it("answers in the WeKnora response shape, exactly", async () => {
    const kb = await newKb("使用手册-2");
    await upload(kb, "guide.md", GUIDE);
    const { status, body } = await search({
      question: "登记计件",
      knowledge_base_ids: [kb],
      search_mode: "hybrid",
      top_k: 2,
      min_score: 0,
      rerank: true,
    });
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["results", "total_count"]);
    expect(body.results).toHaveLength(2);
    expect(body.total_count).toBe(3);
    for (const r of body.results) {
      expect(Object.keys(r).sort()).toEqual([
        "content",
        "id",
        "knowledge_filename",
        "knowledge_id",
        "knowledge_title",
        "match_type",
        "score",
      ]);
      expect(r.score).toBeGreaterThanOrEqual(0);
      expect(r.score).toBeLessThanOrEqual(1);
    }
    expect(body.results[0]!.score).toBeGreaterThanOrEqual(body.results[1]!.score);
  });

  it("filters by min_score, which means the same in every mode", async () => {
    const kb = await newKb("使用手册-3");
    await upload(kb, "guide.md", GUIDE);
    for (const search_mode of ["keyword", "vector", "hybrid"]) {
      const all = await search({ question: "新建订单", knowledge_base_ids: [kb], search_mode, min_score: 0, rerank: false });
      const strict = await search({
        question: "新建订单",
        knowledge_base_ids: [kb],
        search_mode,
        min_score: 0.99,
        rerank: false,
      });
      expect(all.body.results.length).toBeGreaterThan(strict.body.results.length);
      for (const r of strict.body.results) expect(r.score).toBeGreaterThanOrEqual(0.99);
    }
  });

  it("treats the same content uploaded again as a no-op", async () => {
    const kb = await newKb("使用手册-4");
    const first = await (await upload(kb, "guide.md", GUIDE)).json<{ document: { id: string; generation: number } }>();
    const again = await upload(kb, "guide.md", GUIDE);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ status: "unchanged", document: { id: first.document.id, generation: 1 } });
    const copy = await upload(kb, "copy-of-guide.md", GUIDE);
    expect(await copy.json()).toMatchObject({ status: "unchanged", document: { id: first.document.id } });
  });

  it("replaces a document's chunks: the old text is gone from keyword and vector search, the new is found", async () => {
    const kb = await newKb("使用手册-5");
    const { document } = await (await upload(kb, "guide.md", GUIDE)).json<{ document: { id: string } }>();
    const replaced = await call(`/api/knowledge-bases/${kb}/documents/${document.id}`, {
      method: "PUT",
      key: devKeys.boss,
      body: JSON.stringify({ content: "# 手册第二版\n\n## 裁床\n\n裁床主管每天早上核对裁片数量。" }),
    });
    expect(replaced.status).toBe(200);
    expect(await replaced.json()).toMatchObject({
      status: "replaced",
      document: { id: document.id, generation: 2, chunk_count: 1 },
    });
    for (const search_mode of ["keyword", "vector"]) {
      const old = await search({ question: "上领子每件0.8元", knowledge_base_ids: [kb], search_mode, min_score: 0 });
      expect(old.body.results.map((r) => r.content).join()).not.toContain("上领子");
      const fresh = await search({ question: "裁片数量", knowledge_base_ids: [kb], search_mode, min_score: 0 });
      expect(fresh.body.results[0]?.content).toContain("裁床主管");
    }
  });

  it("keeps the previous version serving when a replacement cannot be parsed", async () => {
    const kb = await newKb("使用手册-6");
    const { document } = await (await upload(kb, "guide.md", GUIDE)).json<{ document: { id: string } }>();
    const res = await call(`/api/knowledge-bases/${kb}/documents/${document.id}`, {
      method: "PUT",
      key: devKeys.boss,
      body: JSON.stringify({ content: "binary\u0000junk" }),
    });
    expect(res.status).toBe(422);
    const doc = await (await call(`/api/knowledge-bases/${kb}/documents/${document.id}`, { key: devKeys.boss })).json<
      Record<string, unknown>
    >();
    expect(doc).toMatchObject({ status: "ready", generation: 1, chunk_count: 3 });
    expect(doc.error).toMatch(/replacement refused/);
    const { body } = await search({ question: "工序单价", knowledge_base_ids: [kb], min_score: 0 });
    expect(body.results.length).toBe(3);
  });

  it("marks a document that fails to parse as failed, with the reason and nothing indexed", async () => {
    const kb = await newKb("使用手册-7");
    const res = await upload(kb, "broken.txt", "\u0000\u0001binary");
    expect(res.status).toBe(422);
    expect((await res.json<{ error: { message: string } }>()).error.message).toContain("binary");
    const { documents } = await (await call(`/api/knowledge-bases/${kb}/documents`, { key: devKeys.boss })).json<{
      documents: { status: string; error: string; chunk_count: number }[];
    }>();
    expect(documents).toMatchObject([{ status: "failed", chunk_count: 0 }]);
    expect(documents[0]?.error).toContain("binary");
  });

  it("leaves nothing behind when the vector index fails during ingestion", async () => {
    const kb = await newKb("使用手册-8");
    const backends = searchBackends(searchBindingsOf(env), readConfig(env));
    const vectorIndex = backends.vectorIndex;
    const failing = {
      ...backends,
      vectorIndex: {
        upsert: () => Promise.reject(new Error("index down")),
        delete: (tenantId: string, ids: string[]) => vectorIndex.delete(tenantId, ids),
        query: vectorIndex.query.bind(vectorIndex),
      },
    };
    await expect(
      ingestDocument({
        db: dbOf("t-jinxiu"),
        backends: failing,
        input: { tenantId: "t-jinxiu", kbId: kb, filename: "guide.md", content: GUIDE },
      }),
    ).rejects.toThrow("index down");
    const chunks = await dbOf("t-jinxiu")
      .prepare("SELECT COUNT(*) AS n FROM chunks WHERE kb_id = ?")
      .bind(kb)
      .first<{ n: number }>();
    expect(chunks?.n).toBe(0);
    const doc = await dbOf("t-jinxiu").prepare("SELECT status, error FROM documents WHERE kb_id = ?").bind(kb).first();
    expect(doc).toMatchObject({ status: "failed", error: "indexing failed unexpectedly" });
  });

  it("deletes a document from the chunk table, the keyword index and the vector index", async () => {
    const kb = await newKb("使用手册-9");
    const { document } = await (await upload(kb, "guide.md", GUIDE)).json<{ document: { id: string } }>();
    const table = await keywordTable("t-jinxiu");
    const count = async () => {
      const fts = await dbOf("t-jinxiu")
        .prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE rowid IN (SELECT rowid FROM chunks WHERE document_id = ?)`)
        .bind(document.id)
        .first<{ n: number }>();
      const vectors = await new LocalVectorIndexClient(env.LOCAL_VECTOR_INDEX).count("t-jinxiu");
      return { fts: fts?.n, vectors };
    };
    const before = await count();
    expect(before.fts).toBe(3);
    const res = await call(`/api/knowledge-bases/${kb}/documents/${document.id}`, { method: "DELETE", key: devKeys.boss });
    expect(res.status).toBe(200);
    const after = await count();
    expect(after.vectors).toBe((before.vectors as number) - 3);
    const remaining = await dbOf("t-jinxiu")
      .prepare("SELECT COUNT(*) AS n FROM chunks WHERE document_id = ?")
      .bind(document.id)
      .first<{ n: number }>();
    expect(remaining?.n).toBe(0);
    for (const search_mode of ["keyword", "vector"]) {
      expect((await search({ question: "工序单价", knowledge_base_ids: [kb], search_mode, min_score: 0 })).body.results).toEqual(
        [],
      );
    }
  });

  it("accepts multipart uploads, HTML and plain text", async () => {
    const kb = await newKb("使用手册-10");
    const form = new FormData();
    form.append("file", new File(["<h1>质检</h1><p>每批货抽检百分之五。</p>"], "qc.html", { type: "text/html" }));
    const res = await call(`/api/knowledge-bases/${kb}/documents`, { method: "POST", key: devKeys.boss, body: form });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ document: { title: "质检", content_type: "html", status: "ready" } });
  });

  it("refuses unsupported types with 415 and oversized documents with 413", async () => {
    const kb = await newKb("使用手册-11");
    expect((await upload(kb, "scan.pdf", "%PDF-1.7")).status).toBe(415);
    const big = await upload(kb, "big.txt", "字".repeat(800_000));
    expect(big.status).toBe(413);
    expect((await big.json<{ error: { message: string } }>()).error.message).toMatch(/limit/);
  });

  it("lets a boss rename and delete a knowledge base, removing its documents", async () => {
    const kb = await newKb("旧名字");
    await upload(kb, "guide.md", GUIDE);
    const renamed = await call(`/api/knowledge-bases/${kb}`, {
      method: "PATCH",
      key: devKeys.boss,
      body: JSON.stringify({ name: "新名字" }),
    });
    expect(await renamed.json()).toMatchObject({ name: "新名字", document_count: 1 });
    expect((await call(`/api/knowledge-bases/${kb}`, { method: "DELETE", key: devKeys.staff })).status).toBe(403);
    expect((await call(`/api/knowledge-bases/${kb}`, { method: "DELETE", key: devKeys.boss })).status).toBe(200);
    const docs = await dbOf("t-jinxiu")
      .prepare("SELECT COUNT(*) AS n FROM documents WHERE kb_id = ?")
      .bind(kb)
      .first<{ n: number }>();
    expect(docs?.n).toBe(0);
  });

  it("does not let staff upload", async () => {
    const kb = await newKb("使用手册-12");
    expect((await upload(kb, "guide.md", GUIDE, devKeys.staff)).status).toBe(403);
  });
});

describe("search scope", () => {
  it("never returns another workshop's passages", async () => {
    const theirs = await newKb("华美秘方", devKeys.otherBoss);
    await upload(theirs, "secret.md", "# 秘方\n\n华美独家的防缩水整理工艺参数。", devKeys.otherBoss);
    for (const search_mode of ["keyword", "vector", "hybrid"]) {
      const { body } = await search({ question: "防缩水整理工艺参数", search_mode, min_score: 0 }, devKeys.staff);
      expect(body.results.map((r) => r.content).join()).not.toContain("华美独家");
    }
  });

  it("answers knowledge base ids the caller cannot read with an error, not silence", async () => {
    const theirs = await newKb("华美手册", devKeys.otherBoss);
    const own = await newKb("锦绣手册");
    const { status, body } = await search({ question: "订单", knowledge_base_ids: [own, theirs] });
    expect(status).toBe(404);
    expect(body.error?.message).toContain(theirs);
  });

  it("searches only the chosen knowledge bases", async () => {
    const a = await newKb("范围A");
    const b = await newKb("范围B");
    await upload(a, "a.md", "# A\n\n裁剪车间的安全规定。");
    await upload(b, "b.md", "# B\n\n缝制车间的安全规定。");
    const { body } = await search({ question: "车间安全规定", knowledge_base_ids: [b], min_score: 0 });
    expect(body.results.map((r) => r.content)).toEqual(["缝制车间的安全规定。"]);
  });

  it("rejects out-of-range parameters with 400 naming the field", async () => {
    for (const [field, value] of [
      ["top_k", 51],
      ["min_score", 1.5],
      ["search_mode", "semantic"],
    ] as const) {
      const { status, body } = await search({ question: "订单", [field]: value });
      expect(status).toBe(400);
      expect(body.error?.message).toContain(field);
    }
  });

  it("refuses a field the API does not have, rather than searching every base without it", async () => {
    const kb = await newKb("范围C");
    const { status, body } = await search({ question: "订单", knowledge_base_id: kb });
    expect(status).toBe(400);
    expect(body.error?.message).toContain("knowledge_base_id");
  });
});

describe("knowledge_search over MCP", () => {
  it("returns each passage once, in structured content, with its citation, base and document; the text is a summary citing them", async () => {
    const kb = await newKb("使用手册-mcp");
    await upload(kb, "guide.md", GUIDE);
    const client = await mcpClient(devKeys.staff);
    const result = await client.callTool({
      name: "knowledge_search",
      arguments: { query: "工资怎么算", kb_ids: [kb], min_score: 0 },
    });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as {
      summary: string;
      results: { content: string; heading: string; citation: string; source: string; uri: string | null }[];
      totals: { results: number };
    };
    expect(structured.results[0]?.content).toContain("自动计算工资");
    expect(structured.results[0]).toMatchObject({
      heading: "锦绣制衣系统使用手册 > 登记计件",
      citation: "使用手册-mcp › guide.md › 登记计件",
      source: "document",
      uri: expect.stringMatching(/^weft:\/\/knowledge-bases\//),
    });
    expect(structured.totals.results).toBeGreaterThanOrEqual(structured.results.length);
    const content = result.content as { type: string; text?: string }[];
    expect(content[0]?.text).toBe(structured.summary);
    expect(structured.summary).toContain("最相关的是 使用手册-mcp › guide.md › 登记计件");
    // The passages are not repeated in the text.
    expect(content.filter((c) => c.type === "text").some((c) => c.text?.includes("自动计算工资"))).toBe(false);
  });

  it("reports an unknown knowledge base id as a tool error", async () => {
    const client = await mcpClient(devKeys.staff);
    const result = await client.callTool({ name: "knowledge_search", arguments: { query: "x", kb_ids: ["nope"] } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toContain("knowledge_base_not_found");
  });
});

describe("concurrent uploads", () => {
  it("index one copy of a new file uploaded twice at once and answer the other with 200 or 409, never 500", async () => {
    const kb = await newKb("并发上传");
    const [a, b] = await Promise.all([upload(kb, "guide.md", GUIDE), upload(kb, "guide.md", GUIDE)]);
    expect([a.status, b.status].sort()).toEqual(expect.arrayContaining([201]));
    for (const res of [a, b]) expect([200, 201, 409]).toContain(res.status);
    const docs = await dbOf("t-jinxiu")
      .prepare("SELECT COUNT(*) AS n FROM documents WHERE kb_id = ?")
      .bind(kb)
      .first<{ n: number }>();
    expect(docs?.n).toBe(1);
  });
});
