import { describe, expect, it } from "vitest";
import { keys } from "../fixtures.ts";
import { call } from "../helpers.ts";

const GUIDE = `# 车间手册

## 跳针处理

缝纫机跳针时先换针。再检查针与旋梭的间隙，间隙太大就请机修调整。

## 断线处理

断线多半是线张力太紧，先把面线夹线器拧松半圈。`;

async function knowledgeBase(name: string, key = keys.boss): Promise<string> {
  const res = await call("/api/knowledge-bases", { method: "POST", key, body: JSON.stringify({ name }) });
  expect(res.status).toBe(201);
  return (await res.json<{ id: string }>()).id;
}

async function upload(kb: string, filename: string, content: string, key = keys.boss): Promise<string> {
  const res = await call(`/api/knowledge-bases/${kb}/documents`, {
    method: "POST",
    key,
    body: JSON.stringify({ filename, content }),
  });
  expect(res.status).toBe(201);
  return (await res.json<{ document: { id: string } }>()).document.id;
}

// The passage a search cites, by the chunk id the search gives (what the chat's sources carry).
async function cited(kb: string, question: string, key = keys.staff): Promise<{ id: string; content: string }> {
  const res = await call("/api/v1/knowledge-search", {
    method: "POST",
    key,
    body: JSON.stringify({ question, knowledge_base_ids: [kb], search_mode: "keyword" }),
  });
  const { results } = await res.json<{ results: { id: string; content: string }[] }>();
  if (!results[0]) throw new Error(`nothing found for ${question}`);
  return results[0];
}

describe("GET /api/knowledge-bases/:kbId/passages/:chunkId", () => {
  it("opens a cited passage with its document title, base name and heading path, for staff too", async () => {
    const kb = await knowledgeBase("引用手册");
    const doc = await upload(kb, "guide.md", GUIDE);
    const hit = await cited(kb, "跳针怎么办");
    const res = await call(`/api/knowledge-bases/${kb}/passages/${hit.id}`, { key: keys.staff });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id: hit.id,
      kb_id: kb,
      kb_name: "引用手册",
      document_id: doc,
      document_title: "车间手册",
      filename: "guide.md",
      heading_path: "车间手册 > 跳针处理",
      content: hit.content,
      page: null,
      sheet: null,
    });
    expect(hit.content).toContain("缝纫机跳针时先换针。");
  });

  it("says not found alike for another base's passage, an unknown id and another workshop's caller", async () => {
    const kb = await knowledgeBase("引用手册二");
    const other = await knowledgeBase("别的手册");
    await upload(kb, "guide.md", GUIDE);
    const hit = await cited(kb, "断线");
    const statuses = await Promise.all(
      [
        [`/api/knowledge-bases/${other}/passages/${hit.id}`, keys.boss],
        [`/api/knowledge-bases/${kb}/passages/no-such-chunk`, keys.boss],
        [`/api/knowledge-bases/${kb}/passages/__proto__`, keys.boss],
        [`/api/knowledge-bases/${kb}/passages/${hit.id}`, keys.otherBoss],
      ].map(async ([path, key]) => {
        const res = await call(path as string, { key: key as string });
        return [res.status, (await res.json<{ error: { code: string } }>()).error.code];
      }),
    );
    expect(statuses).toEqual(Array(4).fill([404, "not_found"]));
  });

  it("asks for a sign-in first", async () => {
    expect((await call("/api/knowledge-bases/kb/passages/c")).status).toBe(401);
  });
});
