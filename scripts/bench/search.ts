// Knowledge search through the REST route on `npm run dev` at 1k, 10k and 50k chunks, and
// ingestion throughput, each beside a baseline from the same server and run: a trivial
// authenticated read (GET /api/knowledge-bases, one small D1 query).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { postJson } from "./http.ts";
import { type Figures, measure, printTable } from "./measure.ts";

const KEY = "dev-boss-key";
const SHARED = join(import.meta.dirname, "..", "..", "..", "shared", "eval");
const CHUNKS_PER_DOCUMENT = 20;

/** A small deterministic PRNG, so every run ingests the same corpus. */
function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function readLines(path: string): string[] {
  return readFileSync(path, "utf8").split("\n").filter(Boolean);
}

/** Passages and questions from the evaluation sets (real Chinese and English text), or the shipped docs. */
function loadText(): { passages: string[]; queries: string[] } {
  const sets = ["rgb-zh-dev", "cmrc2018-zh", "xquad-en"].filter((s) => existsSync(join(SHARED, s)));
  if (sets.length === 0) throw new Error(`npm run bench needs the evaluation sets at ${SHARED}`);
  const passages = sets.flatMap((s) =>
    readLines(join(SHARED, s, "corpus.jsonl")).map((l) => (JSON.parse(l) as { text: string }).text),
  );
  const queries = sets.flatMap((s) =>
    readLines(join(SHARED, s, "queries.jsonl")).map((l) => (JSON.parse(l) as { text: string }).text),
  );
  return { passages, queries };
}

/** A Markdown document of about CHUNKS_PER_DOCUMENT sections built from shuffled passages. */
function makeDocument(index: number, passages: string[], random: () => number): { filename: string; content: string } {
  const sections: string[] = [`# 基准文档 ${index}`];
  for (let s = 0; s < CHUNKS_PER_DOCUMENT; s++) {
    const text = passages[Math.floor(random() * passages.length)] as string;
    sections.push(`## 第 ${s + 1} 节\n\n${text.slice(0, 550)}`);
  }
  return { filename: `bench-${index}.md`, content: sections.join("\n\n") };
}

export async function benchSearch(baseUrl: string): Promise<void> {
  const { passages, queries } = loadText();
  const random = mulberry32(42);
  const kb = await postJson<{ id: string }>(baseUrl, KEY, "/api/knowledge-bases", { name: "bench" });
  const rows: Figures[] = [];
  const ingestion: string[] = [];
  let chunks = 0;
  let documents = 0;
  for (const target of [1_000, 10_000, 50_000]) {
    const started = performance.now();
    const before = chunks;
    while (chunks < target) {
      const batch = Array.from({ length: 10 }, () => makeDocument(documents++, passages, random));
      const { results } = await postJson<{ results: { status: string; document?: { chunk_count: number } }[] }>(
        baseUrl,
        KEY,
        `/api/knowledge-bases/${kb.id}/documents`,
        { documents: batch },
      );
      for (const r of results) {
        if (r.status === "failed") throw new Error(`ingestion failed: ${JSON.stringify(r)}`);
        chunks += r.document?.chunk_count ?? 0;
      }
    }
    const seconds = (performance.now() - started) / 1000;
    ingestion.push(
      `| up to ${chunks} chunks | ${chunks - before} | ${seconds.toFixed(1)} s | ${((chunks - before) / seconds).toFixed(0)} |`,
    );

    const label = `${Math.round(target / 1000)}k chunks`;
    rows.push(
      await measure(`${label}: baseline GET /api/knowledge-bases`, { clients: 1, perClient: 100 }, async () => async () => {
        const res = await fetch(`${baseUrl}/api/knowledge-bases`, { headers: { Authorization: `Bearer ${KEY}` } });
        await res.arrayBuffer();
      }),
    );
    for (const [mode, rerank] of [
      ["keyword", false],
      ["vector", false],
      ["hybrid", true],
    ] as const) {
      rows.push(
        await measure(`${label}: ${mode}${rerank ? " + rerank" : ""}`, { clients: 1, perClient: 100 }, async () => async (i) => {
          await postJson(baseUrl, KEY, "/api/v1/knowledge-search", {
            question: queries[(i * 7919) % queries.length],
            knowledge_base_ids: [kb.id],
            search_mode: mode,
            rerank,
            top_k: 10,
            min_score: 0,
          });
        }),
      );
    }
  }
  console.log(
    "\nIngestion through POST /api/knowledge-bases/:id/documents (10 documents of ~20 chunks a request, local backends)",
  );
  console.log("| stage | chunks added | time | chunks/s |");
  console.log("|---|---|---|---|");
  for (const line of ingestion) console.log(line);
  const size = (row: Figures) => row.name.split(":")[0];
  printTable("Knowledge search through POST /api/v1/knowledge-search (1 client, local backends)", rows, (row) =>
    rows.find((r) => r.name.includes("baseline") && size(r) === size(row)),
  );
}
