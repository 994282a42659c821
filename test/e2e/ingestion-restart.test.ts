// A large upload's ingestion job survives `npm run dev` being stopped in the middle: started again
// on the same state, the Workflow resumes where it stopped and finishes once, the document
// searchable whole (one set of chunks, its generation moved once).
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { type DevServer, startDevServer } from "../../scripts/dev-server.ts";

const stateDir = mkdtempSync(join(tmpdir(), "weft-ingest-restart-"));
let running: DevServer | undefined;

afterAll(async () => {
  await running?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

const auth = { Authorization: "Bearer dev-boss-key" };
const ROWS = 20_000;

interface Document {
  status: string;
  generation: number;
  chunk_count: number;
  progress: { unit: string; done: number; total: number | null } | null;
}

async function documentAt(baseUrl: string, url: string): Promise<Document> {
  const res = await fetch(`${baseUrl}${url}`, { headers: auth });
  expect(res.status).toBe(200);
  return (await res.json()) as Document;
}

async function until(baseUrl: string, url: string, done: (d: Document) => boolean, timeoutMs: number): Promise<Document> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const document = await documentAt(baseUrl, url);
    if (done(document)) return document;
    if (Date.now() > end) throw new Error(`timed out; the document is ${JSON.stringify(document)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The ingestion jobs in the stopped server's D1 database, read with Node's SQLite. */
function jobsLeft(): { document_id: string; status: string; done: number }[] {
  const folder = join(stateDir, "v3", "d1", "miniflare-D1DatabaseObject");
  const rows: { document_id: string; status: string; done: number }[] = [];
  if (!existsSync(folder)) return rows;
  for (const file of readdirSync(folder).filter((f) => f.endsWith(".sqlite"))) {
    const db = new DatabaseSync(join(folder, file), { readOnly: true });
    const hasJobs = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'document_jobs'").get();
    if (hasJobs) rows.push(...(db.prepare("SELECT document_id, status, done FROM document_jobs").all() as typeof rows));
    db.close();
  }
  return rows;
}

describe("a large upload's job across a restart of npm run dev", () => {
  it("resumes after the stop and finishes once", { timeout: 600_000 }, async () => {
    running = await startDevServer({ stateDir });
    let { baseUrl } = running;
    const kb = await fetch(`${baseUrl}/api/knowledge-bases`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "大表" }),
    });
    const kbId = ((await kb.json()) as { id: string }).id;
    const lines = [
      "工序,单价（元）,说明",
      ...Array.from(
        { length: ROWS },
        (_, i) =>
          `工序${i + 1},${(i % 97) / 100},第 ${i + 1} 道工序，按工艺单第 ${(i % 40) + 1} 条做，做完交组长检查后登记计件，返工不计件`,
      ),
    ];
    const form = new FormData();
    form.append("file", new File([`${lines.join("\r\n")}\r\n`], "大工价表.csv", { type: "text/csv" }));
    // Under wrangler dev the job runs in the same isolate as the request, which answers when it can;
    // the database, read beside the server, shows the job indexing: the server is stopped then.
    const upload = fetch(`${baseUrl}/api/knowledge-bases/${kbId}/documents`, { method: "POST", headers: auth, body: form }).catch(
      () => null,
    );
    const end = Date.now() + 120_000;
    let left = jobsLeft();
    while (!left.some((job) => job.status === "indexing" && job.done > 0) && Date.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      left = jobsLeft();
    }
    await running.stop();
    await upload;
    expect(left).toMatchObject([{ status: "indexing" }]);
    const stopped = jobsLeft();
    expect(stopped).toHaveLength(1);
    const { document_id } = stopped[0] as { document_id: string };
    const status_url = `/api/knowledge-bases/${kbId}/documents/${document_id}`;

    running = await startDevServer({ stateDir });
    baseUrl = running.baseUrl;
    const done = await until(baseUrl, status_url, (d) => d.status === "ready" || d.status === "failed", 300_000);
    expect(done).toMatchObject({ status: "ready", generation: 1, progress: null });
    const chunks = await fetch(`${baseUrl}/api/knowledge-bases/${kbId}`, { headers: auth });
    expect(((await chunks.json()) as { document_count: number }).document_count).toBe(1);
    const search = await fetch(`${baseUrl}/api/v1/knowledge-search`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ question: "工序12345的单价是多少", knowledge_base_ids: [kbId], top_k: 3, min_score: 0 }),
    });
    const { results } = (await search.json()) as { results: { content: string }[] };
    expect(results[0]?.content).toContain("工序12345的单价（元）");
  });
});
