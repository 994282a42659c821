/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";
import faq from "../../knowledge/faq/车间常见问题.json";
import { call } from "../helpers.ts";

// The shipped knowledge, read by Vite at build time (tests run without a file system).
const DOCS = import.meta.glob<string>("../../knowledge/docs/**/*.md", { query: "?raw", import: "default", eager: true });

async function post<T>(path: string, body: unknown, key = "dev-boss-key"): Promise<T> {
  const res = await call(path, { method: "POST", key, body: JSON.stringify(body) });
  expect(res.status, `${path}: ${res.status}`).toBeLessThan(300);
  return res.json<T>();
}

/** The demo knowledge as `npm run dev` loads it: a base per folder of docs, the FAQ file as an FAQ base. */
async function loadDemoKnowledge(): Promise<void> {
  const folders = new Map<string, { filename: string; content: string }[]>();
  for (const [path, content] of Object.entries(DOCS)) {
    const [folder, filename] = path.split("/").slice(-2) as [string, string];
    folders.set(folder, [...(folders.get(folder) ?? []), { filename, content }]);
  }
  for (const [name, documents] of folders) {
    const kb = await post<{ id: string }>("/api/knowledge-bases", { name });
    await post(`/api/knowledge-bases/${kb.id}/documents`, { documents });
  }
  const kb = await post<{ id: string }>("/api/knowledge-bases", { name: "车间常见问题", type: "faq" });
  await post(`/api/knowledge-bases/${kb.id}/faq/import`, { entries: faq.entries });
}

interface Answer {
  results: { knowledge_title: string; content: string; match_type: string; score: number }[];
  total_count: number;
}

/**
 * The results as lines, each run of equal scores in text order: chunk ids, which break ties between
 * exactly equal scores, are random, so only the order of different scores is the same every run.
 */
function inPlaceOrder(results: [number, string][]): string[] {
  const runs: [number, string[]][] = [];
  for (const [score, text] of results) {
    const last = runs.at(-1);
    if (last && last[0] === score) last[1].push(text);
    else runs.push([score, [text]]);
  }
  return runs.flatMap(([score, texts]) => texts.sort().map((text) => `${score} ${text}`));
}

const QUERIES = [
  "怎么录入计件",
  "计件怎么登记",
  "工资怎么算",
  "新建订单要填什么",
  "how does a client connect over MCP",
  "what does min_score mean",
  "次品返工怎么记",
];
const MODES = [
  { search_mode: "keyword", rerank: false },
  { search_mode: "vector", rerank: false },
  { search_mode: "hybrid", rerank: false },
  { search_mode: "hybrid", rerank: true },
] as const;

// Speed work on search must not move a result: every candidate's place and score, in every mode,
// is pinned here on the demo knowledge (the snapshot was taken before the hot path was optimised).
describe("search results on the demo knowledge", () => {
  it("are the pinned ones, place and score, in every mode, with and without a threshold", { timeout: 60_000 }, async () => {
    await loadDemoKnowledge();
    const seen: Record<string, string[]> = {};
    for (const question of QUERIES) {
      for (const mode of MODES) {
        for (const [top_k, min_score] of [
          [50, 0],
          [10, 0.5],
        ] as const) {
          const body = await post<Answer>("/api/v1/knowledge-search", { question, ...mode, top_k, min_score }, "dev-staff-key");
          seen[`${question} ${mode.search_mode}${mode.rerank ? "+rerank" : ""} top_k=${top_k} min_score=${min_score}`] = [
            `total_count ${body.total_count}`,
            ...inPlaceOrder(
              body.results.map((r) => [r.score, `${r.match_type} ${r.knowledge_title}: ${r.content.slice(0, 30)}`]),
            ),
          ];
        }
      }
    }
    expect(seen).toMatchSnapshot();
  });
});
