// Settings → knowledge files against `npm run dev` in Debian's Chromium, at phone and desktop width:
// a boss uploads the workshop's PDF, Word, Excel and CSV files at once with the file picker and one
// more by drag and drop, sees each become searchable, a photo refused with what it needs, and a
// document the ingestion job is reading with its progress bar.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Page } from "playwright-core";
import { afterEach, describe, expect, inject, it } from "vitest";
import { type Browser, launchBrowser, signInByKeyboard } from "./browser.ts";

const baseUrl = inject("baseUrl");
const stateDir = inject("stateDir");
const FILES = join(import.meta.dirname, "..", "files");
const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 375, height: 812 },
];

let browser: Browser | undefined;
afterEach(async () => {
  const violations = browser?.takeCspViolations() ?? [];
  await browser?.close();
  browser = undefined;
  expect(violations).toEqual([]);
});

/** Runs `sql` on the D1 database of the demo workshop's shard, as the ingestion job would have written it. */
function onDatabase<T>(run: (db: DatabaseSync) => T): T {
  const folder = join(stateDir, "v3", "d1", "miniflare-D1DatabaseObject");
  for (const file of readdirSync(folder).filter((f) => f.endsWith(".sqlite"))) {
    const db = new DatabaseSync(join(folder, file));
    try {
      if (db.prepare("SELECT 1 FROM documents WHERE tenant_id = 't-jinxiu' LIMIT 1").get()) return run(db);
    } finally {
      db.close();
    }
  }
  throw new Error("no D1 database with the demo workshop's documents");
}

const BOSS = { Authorization: "Bearer dev-boss-key" };

/** Deletes, over the REST API, the demo base's documents this test uploads (any width's). */
async function removeUploads(): Promise<void> {
  const bases = (await (await fetch(`${baseUrl}/api/knowledge-bases`, { headers: BOSS })).json()) as {
    knowledge_bases: { id: string; type: string }[];
  };
  for (const kb of bases.knowledge_bases.filter((b) => b.type !== "faq")) {
    const listed = (await (await fetch(`${baseUrl}/api/knowledge-bases/${kb.id}/documents`, { headers: BOSS })).json()) as {
      documents: { id: string; filename: string }[];
    };
    for (const document of listed.documents.filter((d) => /^(工艺单|设备保养制度|工价表|夜班规定|工序卡)/.test(d.filename))) {
      await fetch(`${baseUrl}/api/knowledge-bases/${kb.id}/documents/${document.id}`, { method: "DELETE", headers: BOSS });
    }
  }
}

const row = (page: Page, name: string) => page.locator(".documents li", { hasText: name });

describe("settings → knowledge files", () => {
  for (const viewport of VIEWPORTS) {
    it(`lets a boss upload several files, watch them ingest and read why one failed, at ${viewport.width} px`, {
      timeout: 180_000,
    }, async () => {
      browser = await launchBrowser(viewport, `knowledge-${viewport.width}`);
      const { page, shot } = browser;
      await signInByKeyboard(page, baseUrl, "boss", "boss123");
      await page.getByRole("button", { name: "设置" }).click();
      const section = page.locator(".knowledge-files");
      await section.getByRole("heading", { name: "知识库文件" }).waitFor();
      // The demo workshop's guide is there, searchable.
      await section.locator(".documents li").first().waitFor();
      expect(await section.locator(".documents").textContent()).toContain("可搜索");

      // The other width's copies of these files go first: the same bytes again would be "unchanged".
      await removeUploads();
      // Several files at once through the picker (a phone's too): each its own upload.
      const suffix = viewport.width;
      const picked = ["工艺单.pdf", "设备保养制度.docx", "工价表.xlsx", "夜班规定.csv", "工序卡.png"].map((name) => ({
        name: name.replace(/\./, `-${suffix}.`),
        mimeType: "application/octet-stream",
        buffer: readFileSync(join(FILES, name)),
      }));
      await section.locator('input[type="file"]').setInputFiles(picked);
      // When every file is sent, the one refused says why (as an alert) and the list shows where each stands.
      const photo = picked[4]?.name as string;
      const refusal = section.getByRole("alert").filter({ hasText: `${photo} 没有上传成功` });
      await refusal.waitFor({ timeout: 180_000 });
      expect(await refusal.textContent()).toContain("需要文字识别（OCR）");
      for (const file of picked.slice(0, 4)) {
        await expect.poll(() => row(page, file.name).getAttribute("data-status"), { timeout: 60_000 }).toBe("ready");
      }
      expect(await row(page, photo).getAttribute("data-status")).toBe("failed");
      expect(await row(page, photo).textContent()).toContain("需要文字识别（OCR）");

      if (viewport.width > 400) {
        // Dropped on the section from the desktop.
        const dropped = `夜班规定-gbk-${suffix}.csv`;
        const bytes = [...readFileSync(join(FILES, "夜班规定-gbk.csv"))];
        const transfer = await page.evaluateHandle(
          ({ name, bytes }) => {
            const data = new DataTransfer();
            data.items.add(new File([new Uint8Array(bytes)], name, { type: "text/csv" }));
            return data;
          },
          { name: dropped, bytes },
        );
        await section.locator(".drop-zone").dispatchEvent("drop", { dataTransfer: transfer });
        await expect.poll(() => row(page, dropped).getAttribute("data-status"), { timeout: 120_000 }).toBe("ready");
      }
      await shot("1-uploaded");

      // A document the ingestion job is reading, as its row stands midway: its progress bar.
      const price = picked[2]?.name as string;
      const documentId = onDatabase((db) => {
        const { id } = db.prepare("SELECT id FROM documents WHERE filename = ?").get(price) as { id: string };
        db.prepare(
          `INSERT INTO document_jobs (document_id, tenant_id, job_id, base_generation, kind, content_hash, size_bytes, status, unit, done, total)
           SELECT id, tenant_id, ?2, generation, 'xlsx', 'e2e', size_bytes, 'indexing', 'chunks', 640, 2211 FROM documents WHERE id = ?1`,
        ).run(id, crypto.randomUUID());
        return id;
      });
      try {
        await page.getByRole("button", { name: "返回对话" }).click();
        await page.getByRole("button", { name: "设置" }).click();
        const progress = row(page, price).getByRole("progressbar", { name: `${price} 的进度` });
        await progress.waitFor();
        expect(await progress.getAttribute("value")).toBe("640");
        expect(await progress.getAttribute("max")).toBe("2211");
        expect(await row(page, price).textContent()).toContain("建索引中");
        expect(await row(page, price).textContent()).toContain("640 / 2211 段");
        await row(page, price).scrollIntoViewIfNeeded();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        await shot("2-progress");
      } finally {
        onDatabase((db) => db.prepare("DELETE FROM document_jobs WHERE document_id = ?").run(documentId));
      }
    });
  }
});
