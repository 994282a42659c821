import { env, introspectWorkflow } from "cloudflare:test";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { checkOfficeZip } from "../../src/search/zip-guard.ts";
import { workCount } from "../../src/work-count.ts";
import { dbOf, keys } from "../fixtures.ts";
import { callJson } from "../helpers.ts";
import { newKnowledgeBase } from "./sections.ts";
import { fileBytes, uploadFile } from "./workshop-files.ts";

interface Refusal {
  error: { code: string; message: string; details?: { problem?: { reason: string } } };
}

/** Uploads a file and reads the refusal, checking nothing of it was indexed. */
async function refused(kbId: string, name: string, bytes?: Uint8Array) {
  const res = await uploadFile(kbId, name, bytes ? { bytes } : {});
  const body = await res.json<Refusal>();
  const chunks = await dbOf("t-jinxiu")
    .prepare("SELECT COUNT(*) AS n FROM chunks WHERE kb_id = ?1")
    .bind(kbId)
    .first<{ n: number }>();
  expect(chunks?.n, name).toBe(0);
  return { status: res.status, reason: body.error?.details?.problem?.reason, message: body.error?.message };
}

const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

/** A PDF of one page saying `text` (Helvetica, ASCII), with `junk` tiny objects nothing refers to and no xref table. */
function pdfWithJunk(junk: number, text = "Night shift allowance 30 yuan"): Uint8Array {
  const parts = ["%PDF-1.4\n"];
  for (let n = 10; n < 10 + junk; n++) parts.push(`${n} 0 obj ${n} endobj\n`);
  const stream = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
  parts.push(
    "1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n",
    "2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n",
    "3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >> endobj\n",
    `4 0 obj << /Length ${stream.length} >> stream\n${stream}\nendstream endobj\n`,
    "5 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj\n",
    "trailer << /Root 1 0 R >>\n%%EOF\n",
  );
  return latin1(parts.join(""));
}

describe("hostile and broken files", { timeout: 60_000 }, () => {
  it("refuses a zip bomb dressed as .docx with 413 after inflating at most the limit", async () => {
    const kb = await newKnowledgeBase("炸弹");
    expect(await refused(kb, "炸弹.docx")).toMatchObject({ status: 413, reason: "expands_too_much" });
  });

  it("refuses a zip of too many parts, and one whose part lies about its size", async () => {
    const kb = await newKnowledgeBase("零件");
    const many = Object.fromEntries(Array.from({ length: 2_001 }, (_, i) => [`p/${i}.xml`, new Uint8Array(1)]));
    expect(await refused(kb, "多.xlsx", zipSync(many))).toMatchObject({ status: 413, reason: "expands_too_much" });
    const honest = zipSync({ "word/document.xml": new Uint8Array(1000).fill(0x20) }, { level: 0 });
    // The central directory's uncompressed size (offset 24 of its record) says 10 bytes.
    const lying = honest.slice();
    const view = new DataView(lying.buffer);
    const directory = view.getUint32(lying.length - 22 + 16, true);
    view.setUint32(directory + 24, 10, true);
    expect(await refused(kb, "谎.docx", lying)).toMatchObject({ status: 422, reason: "damaged" });
  });

  it("refuses a zip whose parts share their bytes, having inflated them at most once", async () => {
    // One part of empty DEFLATE blocks (each inflates to nothing), listed 2,000 times over.
    const empty = [0x00, 0x00, 0x00, 0xff, 0xff];
    const data = Uint8Array.from(
      { length: 200 * 1024 },
      (_, i) => (i >= 200 * 1024 - 5 ? [1, 0, 0, 0xff, 0xff] : empty)[i % 5] as number,
    );
    const name = new TextEncoder().encode("word/document.xml");
    const local = new Uint8Array(30 + name.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(8, 8, true);
    lv.setUint32(18, data.length, true);
    lv.setUint16(26, name.length, true);
    local.set(name, 30);
    const entries = 2_000;
    const central = new Uint8Array(entries * (46 + name.length) + 22);
    const cv = new DataView(central.buffer);
    for (let n = 0; n < entries; n++) {
      const at = n * (46 + name.length);
      cv.setUint32(at, 0x02014b50, true);
      cv.setUint16(at + 10, 8, true);
      cv.setUint32(at + 20, data.length, true);
      cv.setUint16(at + 28, name.length, true);
      central.set(name, at + 46);
    }
    const end = entries * (46 + name.length);
    cv.setUint32(end, 0x06054b50, true);
    cv.setUint16(end + 8, entries, true);
    cv.setUint16(end + 10, entries, true);
    cv.setUint32(end + 12, end, true);
    cv.setUint32(end + 16, local.length + data.length, true);
    const zip = new Uint8Array(local.length + data.length + central.length);
    zip.set(local);
    zip.set(data, local.length);
    zip.set(central, local.length + data.length);
    const before = workCount();
    expect(() => checkOfficeZip(zip, "Word")).toThrow(/damaged/);
    expect(workCount() - before).toBeLessThanOrEqual(zip.length);
  });

  it("says a password-protected PDF or Office file needs its password removed", async () => {
    const kb = await newKnowledgeBase("加密");
    expect(await refused(kb, "加密工艺单.pdf")).toMatchObject({ status: 422, reason: "encrypted" });
    const ole = new Uint8Array(4096);
    ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expect(await refused(kb, "加密.docx", ole)).toMatchObject({ status: 422, reason: "encrypted" });
    expect(await refused(kb, "加密.xlsx", ole)).toMatchObject({ status: 422, reason: "encrypted" });
  });

  it("answers corrupt files of every kind with 422 and the kind it expected", async () => {
    const kb = await newKnowledgeBase("损坏");
    const noise = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7919) % 251);
    for (const name of ["坏.pdf", "坏.docx", "坏.xlsx", "坏.png"]) {
      expect(await refused(kb, name, noise), name).toMatchObject({ status: 422, reason: "damaged" });
    }
    const truncated = fileBytes("工艺单.pdf").slice(0, 3000);
    expect(await refused(kb, "半截.pdf", truncated)).toMatchObject({ status: 422 });
    const halfZip = fileBytes("设备保养制度.docx").slice(0, 4000);
    expect(await refused(kb, "半截.docx", halfZip)).toMatchObject({ status: 422, reason: "damaged" });
    expect(await refused(kb, "引号.csv", new TextEncoder().encode('项目,规定\n"夜班补贴,每晚 30 元\n'))).toMatchObject({
      status: 422,
      reason: "damaged",
    });
  });

  it("refuses a million tiny objects by size, reads 100,000 nothing refers to, and fails 5,000 tiny pages by count", async () => {
    await using workflow = await introspectWorkflow(env.INGESTION);
    const kb = await newKnowledgeBase("对象");
    expect(await refused(kb, "百万.pdf", pdfWithJunk(1_000_000))).toMatchObject({ status: 413 });
    const junk = pdfWithJunk(100_000);
    const res = await uploadFile(kb, "对象.pdf", { bytes: junk });
    expect(res.status).toBe(202);
    for (const instance of await workflow.get()) await instance.waitForStatus("complete");
    const { body } = await callJson(`/api/knowledge-bases/${kb}/documents`, { key: keys.boss });
    expect(body.documents[0]).toMatchObject({ status: "ready", chunk_count: 1 });
    // 5,000 pages of tiny page objects, really in the page tree: the job refuses it by its page count.
    const pages = 5_000;
    const kids = Array.from({ length: pages }, (_, i) => `${i + 10} 0 R`).join(" ");
    const tree = [
      "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n",
      `2 0 obj << /Type /Pages /Kids [${kids}] /Count ${pages} >> endobj\n`,
      ...Array.from({ length: pages }, (_, i) => `${i + 10} 0 obj << /Type /Page /Parent 2 0 R >> endobj\n`),
      "trailer << /Root 1 0 R >>\n%%EOF\n",
    ].join("");
    const many = await uploadFile(await newKnowledgeBase("五千页"), "五千页.pdf", { bytes: latin1(tree) });
    expect(many.status).toBe(202);
    for (const instance of await workflow.get()) await instance.waitForStatus("complete");
    const failed = await callJson((await many.json<{ status_url: string }>()).status_url, { key: keys.boss });
    expect(failed.body).toMatchObject({ status: "failed", error_reason: "too_many_pages", error_params: { pages, limit: 1000 } });
  });

  it("refuses a file over its kind's limit with 413 before reading it, and fails a sheet of too many rows", async () => {
    await using workflow = await introspectWorkflow(env.INGESTION);
    const kb = await newKnowledgeBase("超大");
    expect(await refused(kb, "大.docx", new Uint8Array(10 * 1024 * 1024 + 1))).toMatchObject({
      status: 413,
      reason: "too_large",
    });
    expect(await refused(kb, "大.png", new Uint8Array(5 * 1024 * 1024 + 1))).toMatchObject({ status: 413, reason: "too_large" });
    // Too big to read in the request, the sheet goes to the job, which ends it as failed with the reason.
    const rows = `项目,规定\n${"夜班,30\n".repeat(100_001)}`;
    const res = await uploadFile(kb, "行.csv", { bytes: new TextEncoder().encode(rows) });
    expect(res.status).toBe(202);
    for (const instance of await workflow.get()) await instance.waitForStatus("complete");
    const { body } = await callJson((await res.json<{ status_url: string }>()).status_url, { key: keys.boss });
    expect(body).toMatchObject({
      status: "failed",
      error_reason: "too_many_rows",
      error_params: { limit: 100_000 },
      chunk_count: 0,
    });
  });
});
