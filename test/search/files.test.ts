import { describe, expect, it } from "vitest";
import { keys } from "../fixtures.ts";
import { call, callJson, mcpClient } from "../helpers.ts";
import { newKnowledgeBase } from "./sections.ts";
import { uploadFile } from "./workshop-files.ts";

interface Result {
  citation: string;
  content: string;
  file: string;
  heading: string;
  page: number | null;
  sheet: string | null;
}

async function search(kbId: string, query: string): Promise<Result[]> {
  const client = await mcpClient(keys.staff);
  try {
    const out = await client.callTool({ name: "knowledge_search", arguments: { query, kb_ids: [kbId], top_k: 3 } });
    return (out.structuredContent as { results: Result[] }).results;
  } finally {
    await client.close();
  }
}

describe("the workshop's own files", () => {
  it("reads a Chromium-printed PDF page by page: the 门襟 width is found and cited on page 2", async () => {
    const kb = await newKnowledgeBase("工艺文件");
    const res = await uploadFile(kb, "工艺单.pdf");
    expect(res.status).toBe(201);
    const { document } = await res.json<{ document: { status: string; title: string; content_type: string } }>();
    expect(document).toMatchObject({ status: "ready", title: "衬衫工艺单", content_type: "pdf" });
    const [best] = await search(kb, "门襟宽度是多少");
    expect(best).toMatchObject({ file: "工艺单.pdf", page: 2, heading: "衬衫工艺单 > 门襟" });
    expect(best?.citation).toContain("工艺单.pdf › 第 2 页 › 门襟");
    expect(best?.content).toContain("门襟宽度为 3.5 厘米");
    const packing = await search(kb, "每箱装多少件");
    expect(packing[0]).toMatchObject({ page: 3 });
  });

  it("reads a Word file's headings, list and table: 梭床 cleaning is found under its heading", async () => {
    const kb = await newKnowledgeBase("保养制度");
    const res = await uploadFile(kb, "设备保养制度.docx");
    expect(res.status).toBe(201);
    const [best] = await search(kb, "梭床什么时候清理");
    expect(best).toMatchObject({ file: "设备保养制度.docx", heading: "设备保养制度 > 日常保养", page: null });
    expect(best?.content).toContain("每天下班前清理梭床");
    const [table] = await search(kb, "多久换一次机针");
    expect(table?.content).toContain("| 更换机针 | 每两周一次 | 车工本人 |");
    expect(table?.content).toContain("| 项目 | 周期 | 负责人 |");
  });

  it("reads an Excel price list sheet by sheet, each row named by its header: 锁眼's price is found", async () => {
    const kb = await newKnowledgeBase("工价");
    expect((await uploadFile(kb, "工价表.xlsx")).status).toBe(201);
    const [best] = await search(kb, "锁眼的单价是多少");
    expect(best).toMatchObject({ file: "工价表.xlsx", sheet: "工价", heading: "工价" });
    expect(best?.content).toContain("锁眼的单价（元）：0.23，锁眼的说明：每件 7 个眼。");
    const [rule] = await search(kb, "工价的结算方式");
    expect(rule).toMatchObject({ sheet: "说明" });
  });

  it("reads CSV as Excel saves it, UTF-8 with a BOM and GBK alike", async () => {
    for (const name of ["夜班规定.csv", "夜班规定-gbk.csv"]) {
      const kb = await newKnowledgeBase(`夜班-${name}`);
      expect((await uploadFile(kb, name)).status).toBe(201);
      const [best] = await search(kb, "夜班补贴每晚多少钱");
      expect(best, name).toMatchObject({ file: name });
      expect(best?.content, name).toContain("夜班补贴的规定：每晚 30 元，当月随工资发放。");
    }
  });

  it("answers a photo offline with a 422 that says it needs the production OCR model, and stores nothing", async () => {
    const kb = await newKnowledgeBase("照片");
    for (const name of ["工序卡.png", "工序卡.jpg", "扫描件.pdf"]) {
      const res = await uploadFile(kb, name);
      expect(res.status, name).toBe(422);
      const body = await res.json<{ error: { code: string; message: string; details: { problem: { reason: string } } } }>();
      expect(body.error.message, name).toMatch(/OCR/);
      expect(body.error.details.problem.reason, name).toBe("needs_ocr");
    }
    const { body } = await callJson(`/api/knowledge-bases/${kb}/documents`, { key: keys.boss });
    expect(
      body.documents.every((d: { status: string; chunk_count: number }) => d.status === "failed" && d.chunk_count === 0),
    ).toBe(true);
  });

  it("tells what to do with an old Word file or a PowerPoint: 415 with the way out", async () => {
    const kb = await newKnowledgeBase("旧格式");
    const res = await uploadFile(kb, "老文件.doc", { bytes: new Uint8Array([0xd0, 0xcf, 0x11, 0xe0]) });
    expect(res.status).toBe(415);
    expect((await res.json<{ error: { message: string } }>()).error.message).toContain("save it as .docx");
    expect(
      (await call(`/api/knowledge-bases/${kb}/documents`, { key: keys.boss }).then((r) => r.json<{ documents: [] }>())).documents,
    ).toEqual([]);
  });
});
