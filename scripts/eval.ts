// npm run eval: retrieval quality on the sets in ../shared/eval (BEIR layout), through Weft's own
// ingestion and search API on `npm run dev` with the local backends. Prints nDCG@10, recall@10 and
// MRR@10 per search mode. Reads ../shared, which users do not have; it is a developer tool.
import { appendFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { passageText } from "../src/search/passage-text.ts";
import { postJson } from "./bench/http.ts";
import { startDevServer } from "./dev-server.ts";
import { calibrationFigures, type Judged } from "./eval/calibration-figures.ts";

const EVAL_DIR = join(import.meta.dirname, "..", "..", "shared", "eval");
const KEY = "dev-boss-key";
const MODES = [
  { key: "keyword", name: "keyword", search_mode: "keyword", rerank: false },
  { key: "vector", name: "vector", search_mode: "vector", rerank: false },
  { key: "hybrid", name: "hybrid", search_mode: "hybrid", rerank: false },
  { key: "rerank", name: "hybrid + rerank", search_mode: "hybrid", rerank: true },
] as const;

interface Doc {
  _id: string;
  title: string;
  text: string;
}

function readJsonl<T>(path: string): T[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as T);
}

function readQrels(path: string): Map<string, Set<string>> {
  const qrels = new Map<string, Set<string>>();
  for (const line of readFileSync(path, "utf8").trim().split("\n").slice(1)) {
    const [query, doc, score] = line.split("\t");
    if (!query || !doc || Number(score) <= 0) continue;
    if (!qrels.has(query)) qrels.set(query, new Set());
    qrels.get(query)?.add(doc);
  }
  return qrels;
}

/** nDCG@10, recall@10 and MRR@10 for one ranked list of document ids. */
export function scoreRanking(ranked: string[], relevant: Set<string>) {
  let dcg = 0;
  let hits = 0;
  let mrr = 0;
  ranked.slice(0, 10).forEach((id, i) => {
    if (!relevant.has(id)) return;
    dcg += 1 / Math.log2(i + 2);
    hits++;
    if (mrr === 0) mrr = 1 / (i + 1);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(10, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return { ndcg: dcg / ideal, recall: hits / relevant.size, mrr };
}

async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

async function evaluate(baseUrl: string, set: string) {
  const dir = join(EVAL_DIR, set);
  const corpus = readJsonl<Doc>(join(dir, "corpus.jsonl"));
  const qrels = readQrels(join(dir, "qrels.tsv"));
  const judged = readJsonl<{ _id: string; text: string }>(join(dir, "queries.jsonl")).filter((q) => qrels.has(q._id));
  // A query with no text cannot be asked (the API refuses it); it is reported, not scored.
  const queries = judged.filter((q) => q.text.trim().length > 0);

  const kb = await postJson<{ id: string }>(baseUrl, KEY, "/api/knowledge-bases", { name: `eval-${set}` });
  const started = performance.now();
  let chunks = 0;
  for (let i = 0; i < corpus.length; i += 100) {
    const documents = corpus
      .slice(i, i + 100)
      .map((d) => ({ filename: `${d._id}.txt`, content: d.text, ...(d.title ? { title: d.title } : {}) }));
    const { results } = await postJson<{ results: { status: string; document?: { chunk_count: number }; error?: unknown }[] }>(
      baseUrl,
      KEY,
      `/api/knowledge-bases/${kb.id}/documents`,
      { documents },
    );
    for (const r of results) {
      if (r.status === "failed") throw new Error(`ingestion failed: ${JSON.stringify(r)}`);
      chunks += r.document?.chunk_count ?? 0;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const skipped = judged.length - queries.length;
  console.log(
    `\n${set}: ${corpus.length} passages → ${chunks} chunks in ${seconds.toFixed(1)} s; ${queries.length} queries${skipped ? ` (${skipped} empty ones skipped)` : ""}`,
  );
  // Chunk id → the text it was indexed and reranked by, for the dump.
  const texts = new Map<string, string>();
  console.log("| mode | nDCG@10 | recall@10 | MRR@10 | relevant top-10 ≥ 0.5 | non-relevant top-10 ≥ 0.5 | AUC |");
  console.log("|---|---|---|---|---|---|---|");
  const byThreshold: string[] = [];
  for (const mode of MODES.filter((m) => !ONLY || ONLY.has(m.key))) {
    const total = { ndcg: 0, recall: 0, mrr: 0 };
    const judgedTop10: Judged[] = [];
    await pool(queries, 4, async (q) => {
      const { results } = await postJson<{
        results: { id: string; knowledge_filename: string; knowledge_title: string; score: number; content: string }[];
      }>(baseUrl, KEY, "/api/v1/knowledge-search", {
        question: q.text,
        knowledge_base_ids: [kb.id],
        search_mode: mode.search_mode,
        rerank: mode.rerank,
        top_k: 50,
        min_score: 0,
      });
      // Results are chunks; relevance is judged per document, which takes its best chunk's score.
      const best = new Map<string, number>();
      for (const r of results) {
        const doc = r.knowledge_filename.replace(/\.txt$/, "");
        if (!best.has(doc)) best.set(doc, r.score);
      }
      const ranked = [...best.keys()];
      const relevant = qrels.get(q._id) as Set<string>;
      const s = scoreRanking(ranked, relevant);
      total.ndcg += s.ndcg;
      total.recall += s.recall;
      total.mrr += s.mrr;
      for (const doc of ranked.slice(0, 10)) judgedTop10.push({ score: best.get(doc) as number, relevant: relevant.has(doc) });
      if (DUMP) {
        // In raw order with raw scores (`--raw`), as the fit reads a list; texts go once per chunk, below.
        // The route returns no heading path; a plain-text passage has one only if a line starts with '#'.
        for (const r of results)
          texts.set(r.id, passageText({ knowledge_title: r.knowledge_title, heading_path: "", content: r.content }));
        const rows = results.map((r) => ({ id: r.id, doc: r.knowledge_filename.replace(/\.txt$/, ""), score: r.score }));
        appendFileSync(
          DUMP,
          `${JSON.stringify({ set, mode: mode.name, query: q.text, relevant: [...relevant], results: rows })}\n`,
        );
      }
    });
    const n = queries.length;
    const c = calibrationFigures(judgedTop10);
    console.log(
      `| ${mode.name} | ${(total.ndcg / n).toFixed(3)} | ${(total.recall / n).toFixed(3)} | ${(total.mrr / n).toFixed(3)} | ${c.relevantKept.toFixed(3)} | ${c.nonRelevantKept.toFixed(3)} | ${c.auc.toFixed(3)} |`,
    );
    for (const threshold of THRESHOLDS) {
      const t = calibrationFigures(judgedTop10, threshold);
      byThreshold.push(`| ${mode.name} | ${threshold} | ${t.relevantKept.toFixed(3)} | ${t.nonRelevantKept.toFixed(3)} |`);
    }
  }
  if (THRESHOLDS.length > 0) {
    console.log("\n| mode | min_score | relevant top-10 kept | non-relevant top-10 kept |\n|---|---|---|---|");
    for (const row of byThreshold) console.log(row);
  }
  if (DUMP) appendFileSync(DUMP, `${JSON.stringify({ set, texts: [...texts] })}\n`);
}

if (!existsSync(EVAL_DIR)) {
  console.error(`No evaluation sets at ${EVAL_DIR}: npm run eval needs the shared folder beside the project.`);
  process.exit(1);
}
// `--dump FILE` appends every query's results (JSON lines: per query the chunk ids, documents and
// scores in served order; per set, at its end, each chunk's text); `--raw` serves uncalibrated
// scores in raw order. Both together collect what scripts/fit-calibration.ts fits from.
const args = process.argv.slice(2);
const dumpAt = args.indexOf("--dump");
const DUMP = dumpAt >= 0 ? args.splice(dumpAt, 2)[1] : undefined;
// `--modes keyword,rerank` runs only those modes (keyword, vector, hybrid, rerank).
const modesAt = args.indexOf("--modes");
const ONLY = modesAt >= 0 ? new Set(args.splice(modesAt, 2)[1]?.split(",")) : undefined;
// `--thresholds 0.3,0.4,0.5` also prints the shares of relevant and non-relevant results each would keep.
const thresholdsAt = args.indexOf("--thresholds");
const THRESHOLDS =
  thresholdsAt >= 0 ? (args.splice(thresholdsAt, 2)[1] ?? "").split(",").map(Number).filter(Number.isFinite) : [];
const rawAt = args.indexOf("--raw");
if (rawAt >= 0) {
  args.splice(rawAt, 1);
  process.env.WEFT_RAW_SCORES = "1";
}
const sets = args.length > 0 ? args : readdirSync(EVAL_DIR).filter((f) => existsSync(join(EVAL_DIR, f, "corpus.jsonl")));
console.log(`Retrieval evaluation (local backends${process.env.WEFT_RAW_SCORES === "1" ? ", raw scores" : ""})`);
// Keyword statistics are per workshop, so each set gets a server with a fresh state of its own:
// otherwise a set's IDF would count the text of the sets loaded before it.
for (const set of sets) {
  const server = await startDevServer();
  try {
    await evaluate(server.baseUrl, set);
  } finally {
    await server.stop();
  }
}
