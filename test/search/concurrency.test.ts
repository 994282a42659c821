import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../src/config.ts";
import { searchBackends } from "../../src/search/backends.ts";
import { ingestDocument } from "../../src/search/ingest.ts";
import { deleteKnowledgeBase } from "../../src/search/knowledge-bases.ts";
import { searchBindingsOf } from "../../src/services.ts";
import { dbOf, keys } from "../fixtures.ts";
import { call } from "../helpers.ts";
import { storedVectorIds } from "../vector-rows.ts";

interface Answer {
  status: string;
  document?: { id: string; generation: number; content_hash: string };
  error?: { code: string };
}

async function newKb(name: string): Promise<string> {
  const res = await call("/api/knowledge-bases", { method: "POST", key: keys.boss, body: JSON.stringify({ name }) });
  return (await res.json<{ id: string }>()).id;
}

const contentOf = (i: number) => `# 版本${i}\n\n这是第${i}版的说明，编号${i}号。`;

/** The document's stored chunk text, and how many vectors the index holds for it. */
async function stored(documentId: string) {
  const { results } = await dbOf("t-jinxiu")
    .prepare("SELECT id, content FROM chunks WHERE document_id = ? ORDER BY position")
    .bind(documentId)
    .all<{ id: string; content: string }>();
  const vectors = await storedVectorIds("t-jinxiu", "document_id = ?", documentId);
  const doc = await dbOf("t-jinxiu")
    .prepare("SELECT generation, status FROM documents WHERE id = ?")
    .bind(documentId)
    .first<{ generation: number; status: string }>();
  return { text: results.map((r) => r.content).join("\n"), chunkIds: results.map((r) => r.id), vectors, doc };
}

/**
 * Every writer's answer must be true: the stored ones (201/200) moved the generation by exactly one
 * each, in turn; the one stored last is what the document holds; the 409s left nothing behind.
 */
async function expectTrueAnswers(
  answers: { index: number; code: number; body: Answer }[],
  startGeneration: number,
  documentId: string,
) {
  for (const a of answers) expect([200, 201, 409]).toContain(a.code);
  const storedAnswers = answers.filter((a) => a.code !== 409).map((a) => a.body.document as NonNullable<Answer["document"]>);
  expect(storedAnswers.length).toBeGreaterThan(0);
  const generations = storedAnswers.map((d) => d.generation).sort((x, y) => x - y);
  expect(generations).toEqual(generations.map((_, i) => startGeneration + i + 1));
  for (const a of answers.filter((a) => a.code === 409)) expect(a.body.error?.code).toBe("conflict");
  const state = await stored(documentId);
  expect(state.doc).toEqual({ generation: startGeneration + storedAnswers.length, status: "ready" });
  const last = answers.find((a) => a.body.document?.generation === state.doc?.generation);
  expect(last).toBeDefined();
  expect(state.text).toContain(`编号${last?.index}号`);
  expect(state.vectors.sort()).toEqual(state.chunkIds.sort());
}

describe("concurrent writers of one document", () => {
  it("tells 20 concurrent uploads of one new file name the truth, and keeps exactly one content", async () => {
    const kb = await newKb("并发-新文件");
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        call(`/api/knowledge-bases/${kb}/documents`, {
          method: "POST",
          key: keys.boss,
          body: JSON.stringify({ filename: "same.md", content: contentOf(index) }),
        }).then(async (res) => ({ index, code: res.status, body: await res.json<Answer>() })),
      ),
    );
    const created = responses.filter((r) => r.code === 201);
    expect(created).toHaveLength(1);
    expect(created[0]?.body.status).toBe("created");
    for (const r of responses.filter((r) => r.code === 200)) expect(r.body.status).toBe("replaced");
    const { n } =
      (await dbOf("t-jinxiu").prepare("SELECT COUNT(*) AS n FROM documents WHERE kb_id = ?").bind(kb).first<{ n: number }>()) ??
      {};
    expect(n).toBe(1);
    await expectTrueAnswers(responses, 0, created[0]?.body.document?.id as string);
  });

  it("tells 20 concurrent PUTs of one document the truth: the generation moves once per stored write", async () => {
    const kb = await newKb("并发-替换");
    const first = await call(`/api/knowledge-bases/${kb}/documents`, {
      method: "POST",
      key: keys.boss,
      body: JSON.stringify({ filename: "doc.md", content: contentOf(100) }),
    });
    const documentId = (await first.json<Answer>()).document?.id as string;
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        call(`/api/knowledge-bases/${kb}/documents/${documentId}`, {
          method: "PUT",
          key: keys.boss,
          body: JSON.stringify({ content: contentOf(index) }),
        }).then(async (res) => ({ index, code: res.status, body: await res.json<Answer>() })),
      ),
    );
    for (const r of responses.filter((r) => r.code === 200)) expect(r.body.status).toBe("replaced");
    await expectTrueAnswers(responses, 1, documentId);
  });
});

describe("uploading into a knowledge base being deleted", () => {
  it("answers 404, not a FOREIGN KEY failure, and leaves no vectors, when the base goes while indexing", async () => {
    const kb = await newKb("并发-删除中");
    const backends = searchBackends(searchBindingsOf(env), readConfig(env));
    const deletingMidway = {
      ...backends,
      embedder: {
        ...backends.embedder,
        embed: async (texts: string[]) => {
          await deleteKnowledgeBase({ db: dbOf("t-jinxiu"), backends, tenantId: "t-jinxiu", id: kb });
          return backends.embedder.embed(texts);
        },
      },
    };
    const upload = ingestDocument({
      db: dbOf("t-jinxiu"),
      backends: deletingMidway,
      input: { tenantId: "t-jinxiu", kbId: kb, filename: "a.md", content: contentOf(1) },
    });
    await expect(upload).rejects.toMatchObject({ code: "not_found" });
    expect((await storedVectorIds("t-jinxiu", "kb_id = ?", kb)).length).toBe(0);
  });

  it("answers 404 when the base is gone before the document row is written", async () => {
    const kb = await newKb("并发-已删除");
    const backends = searchBackends(searchBindingsOf(env), readConfig(env));
    await deleteKnowledgeBase({ db: dbOf("t-jinxiu"), backends, tenantId: "t-jinxiu", id: kb });
    await expect(
      ingestDocument({
        db: dbOf("t-jinxiu"),
        backends,
        input: { tenantId: "t-jinxiu", kbId: kb, filename: "a.md", content: contentOf(1) },
      }),
    ).rejects.toMatchObject({ code: "not_found" });
  });

  it("never answers 500 to uploads racing a delete over HTTP", async () => {
    for (let round = 0; round < 5; round++) {
      const kb = await newKb(`并发-竞速-${round}`);
      const [uploaded, deleted] = await Promise.all([
        call(`/api/knowledge-bases/${kb}/documents`, {
          method: "POST",
          key: keys.boss,
          body: JSON.stringify({ documents: [{ filename: "a.md", content: contentOf(round) }] }),
        }),
        call(`/api/knowledge-bases/${kb}`, { method: "DELETE", key: keys.boss }),
      ]);
      expect(deleted.status).toBe(200);
      expect([200, 404]).toContain(uploaded.status);
      if (uploaded.status === 200) {
        const { results } = await uploaded.json<{ results: Answer[] }>();
        expect(["created", "failed"]).toContain(results[0]?.status);
        if (results[0]?.status === "failed") expect(results[0].error?.code).toBe("not_found");
      }
    }
  });
});

describe("concurrent writers of knowledge base names", () => {
  it("answers 10 concurrent creations of one name with one 201 and nine 409", async () => {
    const codes = await Promise.all(
      Array.from({ length: 10 }, () =>
        call("/api/knowledge-bases", { method: "POST", key: keys.boss, body: JSON.stringify({ name: "同名并发" }) }).then(
          (res) => res.status,
        ),
      ),
    );
    expect(codes.sort()).toEqual([201, ...Array(9).fill(409)]);
  });

  it("answers concurrent renames to one name with one 200 and 409s", async () => {
    const ids = await Promise.all(Array.from({ length: 5 }, (_, i) => newKb(`改名前-${i}`)));
    const codes = await Promise.all(
      ids.map((id) =>
        call(`/api/knowledge-bases/${id}`, {
          method: "PATCH",
          key: keys.boss,
          body: JSON.stringify({ name: "改名后" }),
        }).then((res) => res.status),
      ),
    );
    expect(codes.sort()).toEqual([200, 409, 409, 409, 409]);
  });
});
