import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type DevServer, startDevServer } from "../../scripts/dev-server.ts";

const stateDir = mkdtempSync(join(tmpdir(), "weft-restart-"));
let running: DevServer | undefined;

afterAll(async () => {
  await running?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

const headers = { Authorization: "Bearer dev-boss-key", "Content-Type": "application/json" };

async function search(baseUrl: string, kbId: string) {
  const res = await fetch(`${baseUrl}/api/v1/knowledge-search`, {
    method: "POST",
    headers,
    body: JSON.stringify({ question: "锁边机的针距", knowledge_base_ids: [kbId], search_mode: "hybrid", min_score: 0 }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: { content: string }[] }).results.map((r) => r.content).join("\n");
}

describe("npm run dev stopped and started again on the same state", () => {
  it("keeps what a user uploaded, still searchable, and starts cleanly", { timeout: 420_000 }, async () => {
    running = await startDevServer({ stateDir });
    let { baseUrl } = running;
    const kb = await fetch(`${baseUrl}/api/knowledge-bases`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "我的笔记" }),
    });
    expect(kb.status).toBe(201);
    const kbId = ((await kb.json()) as { id: string }).id;
    const doc = await fetch(`${baseUrl}/api/knowledge-bases/${kbId}/documents`, {
      method: "POST",
      headers,
      body: JSON.stringify({ filename: "overlock.md", content: "# 锁边机\n\n锁边机的针距调到每厘米四针，线迹最平整。" }),
    });
    expect(doc.status).toBe(201);
    expect(await search(baseUrl, kbId)).toContain("每厘米四针");
    // Wrangler's local trace store is off (scripts/lib.ts): requests leave no record that only grows.
    expect(existsSync(join(stateDir, "v3", "observability"))).toBe(false);
    await running.stop();

    running = await startDevServer({ stateDir });
    baseUrl = running.baseUrl;
    expect(running.startOutput).not.toMatch(/failed|error|exception|constraint/i);
    expect(running.startOutput).toMatch(
      /Knowledge bases \(the boss's workshop\): .*\(\d+ documents, \d+ chunks, from knowledge\/\)/,
    );
    // The start-up summary names what a user created too, not only what was loaded from knowledge/.
    expect(running.startOutput).toContain("我的笔记 (1 document, 1 chunk)");
    expect(await search(baseUrl, kbId)).toContain("每厘米四针");
    const listed = await fetch(`${baseUrl}/api/knowledge-bases/${kbId}/documents`, { headers });
    expect(((await listed.json()) as { documents: { filename: string; status: string }[] }).documents).toMatchObject([
      { filename: "overlock.md", status: "ready" },
    ]);
  });
});
