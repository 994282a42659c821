import { env, introspectWorkflow } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ingestDocument } from "../../src/search/ingest.ts";
import type { JobParams } from "../../src/search/ingestion.ts";
import { runIngestionJob } from "../../src/search/ingestion-job.ts";
import { dbOf, keys, testServices, users } from "../fixtures.ts";
import { call, callJson, mcpClient } from "../helpers.ts";
import { newKnowledgeBase } from "./sections.ts";
import { fileBytes, uploadFile } from "./workshop-files.ts";

interface Queued {
  status: string;
  status_url: string;
  document: { id: string; status: string };
}

async function documentAt(url: string) {
  return (await callJson(url, { key: keys.staff })).body;
}

async function chunkCount(documentId: string): Promise<number> {
  const row = await dbOf("t-jinxiu")
    .prepare("SELECT COUNT(*) AS n FROM chunks WHERE document_id = ?1")
    .bind(documentId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

async function found(kbId: string, query: string): Promise<{ file: string; page: number | null }[]> {
  const client = await mcpClient(keys.staff);
  try {
    const out = await client.callTool({ name: "knowledge_search", arguments: { query, kb_ids: [kbId], top_k: 3 } });
    return (out.structuredContent as { results: { file: string; page: number | null }[] }).results;
  } finally {
    await client.close();
  }
}

describe("ingestion as a durable job", { timeout: 30_000 }, () => {
  it("reports where it stands after each step: queued, then indexing N of the passages, then ready", async () => {
    const search = testServices().search;
    const started: JobParams[] = [];
    const kb = await newKnowledgeBase("工艺-进度");
    const outcome = await ingestDocument({
      ...search,
      ingestion: { start: async (params) => void started.push(params) },
      preferJob: true,
      input: { tenantId: users.boss.tenantId, kbId: kb, filename: "工艺单.pdf", content: fileBytes("工艺单.pdf") },
    });
    expect(outcome).toMatchObject({ status: "queued", document: { status: "queued", progress: null } });
    const url = `/api/knowledge-bases/${kb}/documents/${outcome.document.id}`;
    const seen: [string, unknown][] = [];
    const steps = {
      do: async <T>(name: string, run: () => Promise<T>) => {
        const result = await run();
        const { status, progress } = await documentAt(url);
        seen.push([name, { status, progress }]);
        return result;
      },
    };
    expect(await runIngestionJob(search, started[0] as JobParams, steps)).toBe("ready");
    const chunks = (await documentAt(url)).chunk_count;
    expect(seen).toEqual([
      ["load", { status: "queued", progress: null }],
      ["parse", { status: "indexing", progress: { unit: "chunks", done: 0, total: chunks } }],
      ["index 0", { status: "indexing", progress: { unit: "chunks", done: chunks, total: chunks } }],
      ["commit", { status: "ready", progress: null }],
    ]);
  });

  it("starts again a job whose instance was lost, when someone reads its status, and writes the document once", async () => {
    const search = testServices().search;
    const kb = await newKnowledgeBase("工价-失联");
    // A job whose instance never runs, as when wrangler dev is stopped mid-job, left two minutes ago.
    const outcome = await ingestDocument({
      ...search,
      ingestion: { start: async () => undefined },
      preferJob: true,
      input: { tenantId: users.boss.tenantId, kbId: kb, filename: "工价表.xlsx", content: fileBytes("工价表.xlsx") },
    });
    await dbOf("t-jinxiu")
      .prepare("UPDATE document_jobs SET updated_at = '2026-01-01T00:00:00.000Z' WHERE document_id = ?1")
      .bind(outcome.document.id)
      .run();
    await using workflow = await introspectWorkflow(env.INGESTION);
    const url = `/api/knowledge-bases/${kb}/documents/${outcome.document.id}`;
    expect(await documentAt(url)).toMatchObject({ status: "queued" });
    const [instance] = await workflow.get();
    await instance?.waitForStatus("complete");
    expect(await documentAt(url)).toMatchObject({ status: "ready", generation: 1 });
    expect(await workflow.get()).toHaveLength(1);
  });

  it("answers 202 with the status URL and makes the document searchable only once ready", async () => {
    await using workflow = await introspectWorkflow(env.INGESTION);
    const kb = await newKnowledgeBase("工艺-任务");
    const res = await uploadFile(kb, "工艺单.pdf", { async: true });
    expect(res.status).toBe(202);
    const queued = await res.json<Queued>();
    expect(res.headers.get("Location")).toBe(queued.status_url);
    expect(queued.status_url).toBe(`/api/knowledge-bases/${kb}/documents/${queued.document.id}`);
    expect(queued.document.status).toBe("queued");
    expect(await found(kb, "门襟宽度是多少")).toEqual([]);

    const [instance] = await workflow.get();
    await instance?.waitForStatus("complete");
    expect(await instance?.getOutput()).toBe("ready");
    const done = await documentAt(queued.status_url);
    expect(done).toMatchObject({ status: "ready", progress: null, error: null, title: "衬衫工艺单" });
    expect(await chunkCount(queued.document.id)).toBe(done.chunk_count);
    expect((await found(kb, "门襟宽度是多少"))[0]).toMatchObject({ file: "工艺单.pdf", page: 2 });
    // The job's row and the file's bytes are gone with it.
    const left = await dbOf("t-jinxiu")
      .prepare("SELECT COUNT(*) AS n FROM document_jobs WHERE document_id = ?1")
      .bind(queued.document.id)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });

  it("finishes a job once when a step fails mid-way and runs again, as after a crash", async () => {
    await using workflow = await introspectWorkflow(env.INGESTION);
    await workflow.modifyAll(async (m) => {
      await m.disableRetryDelays();
      await m.mockStepError({ name: "index 0" }, new Error("the isolate was restarted"), 1);
      await m.mockStepError({ name: "commit" }, new Error("the isolate was restarted"), 1);
    });
    const kb = await newKnowledgeBase("工价-重启");
    const queued = await (await uploadFile(kb, "工价表.xlsx", { async: true })).json<Queued>();
    const [instance] = await workflow.get();
    await instance?.waitForStatus("complete");
    const done = await documentAt(queued.status_url);
    expect(done).toMatchObject({ status: "ready", generation: 1 });
    expect(await chunkCount(queued.document.id)).toBe(done.chunk_count);
    const results = await found(kb, "锁眼的单价是多少");
    expect(results.filter((r) => r.file === "工价表.xlsx")).toHaveLength(1);
  });

  it("starts no second job for the same bytes uploaded again while the first runs", async () => {
    await using workflow = await introspectWorkflow(env.INGESTION);
    const kb = await newKnowledgeBase("保养-重复");
    const first = await (await uploadFile(kb, "设备保养制度.docx", { async: true })).json<Queued>();
    const second = await uploadFile(kb, "设备保养制度.docx", { async: true });
    expect([200, 202]).toContain(second.status);
    expect((await second.json<Queued>()).document.id).toBe(first.document.id);
    const instances = await workflow.get();
    for (const instance of instances) await instance.waitForStatus("complete");
    expect(instances).toHaveLength(1);
    expect(await documentAt(first.status_url)).toMatchObject({ status: "ready", generation: 1 });
  });

  it("lets a newer upload supersede a queued one: only the newer is indexed", async () => {
    await using workflow = await introspectWorkflow(env.INGESTION);
    const kb = await newKnowledgeBase("夜班-替换");
    const older = await (await uploadFile(kb, "夜班规定.csv", { async: true })).json<Queued>();
    const newer = await (
      await uploadFile(kb, "夜班规定.csv", { async: true, bytes: fileBytes("夜班规定-gbk.csv") })
    ).json<Queued>();
    expect(newer.document.id).toBe(older.document.id);
    const outputs = [];
    for (const instance of await workflow.get()) {
      await instance.waitForStatus("complete");
      outputs.push(await instance.getOutput());
    }
    expect(outputs.sort()).toEqual(["ready", "superseded"]);
    const done = await documentAt(newer.status_url);
    expect(done).toMatchObject({ status: "ready", generation: 1 });
    expect(await chunkCount(newer.document.id)).toBe(done.chunk_count);
  });

  it("ends a job for a file it cannot read as failed, with the reason in both languages' terms and nothing indexed", async () => {
    await using workflow = await introspectWorkflow(env.INGESTION);
    const kb = await newKnowledgeBase("加密-任务");
    const queued = await (await uploadFile(kb, "加密工艺单.pdf", { async: true })).json<Queued>();
    const [instance] = await workflow.get();
    await instance?.waitForStatus("complete");
    expect(await instance?.getOutput()).toBe("failed");
    const done = await documentAt(queued.status_url);
    expect(done).toMatchObject({ status: "failed", error_reason: "encrypted", chunk_count: 0, progress: null });
    expect(done.error).toMatch(/password/);
    expect(await chunkCount(queued.document.id)).toBe(0);
  });

  it("keeps a document deleted while its job runs deleted, its job ending without writing", async () => {
    await using workflow = await introspectWorkflow(env.INGESTION);
    const kb = await newKnowledgeBase("删除-任务");
    const queued = await (await uploadFile(kb, "工艺单.pdf", { async: true })).json<Queued>();
    expect((await call(queued.status_url, { method: "DELETE", key: keys.boss })).status).toBe(200);
    const [instance] = await workflow.get();
    await instance?.waitForStatus("complete");
    expect(await instance?.getOutput()).toBe("superseded");
    expect((await call(queued.status_url, { key: keys.boss })).status).toBe(404);
    expect(await chunkCount(queued.document.id)).toBe(0);
  });
});
