// The seed's WeKnora client (`weknora_search` in ../shared/seeds/000, section 4) pointed at Weft
// unchanged: its argument defaults (min_score 0.5 above all), its request body, the response
// fields it reads, and its `score × 100` rendering, against the demo guide that `npm run dev` loads.
import { describe, expect, inject, it } from "vitest";
import { z } from "zod";

const baseUrl = inject("baseUrl");

/** The tool's input schema as the seed declares it, for its defaults. */
const WeknoraSearchArgs = z.object({
  query: z.string().min(1).max(2000),
  search_mode: z.enum(["hybrid", "vector", "keyword"]).optional().default("hybrid"),
  top_k: z.number().int().min(1).max(50).optional().default(10),
  min_score: z.number().min(0).max(1).optional().default(0.5),
  rerank: z.boolean().optional().default(true),
});

interface WeknoraResult {
  id: string;
  content: string;
  score: number;
  knowledge_id: string;
  knowledge_title: string;
  knowledge_filename: string;
  match_type: string;
}

/** The seed's tool handler: the same request, the same fields read, the same text built. */
async function weknoraSearch(context: { api_key: string; kb_ids?: string[]; base_url: string }, input: { query: string }) {
  const { query, search_mode, top_k, min_score, rerank } = WeknoraSearchArgs.parse(input);
  const response = await fetch(`${context.base_url}/api/v1/knowledge-search`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${context.api_key}` },
    body: JSON.stringify({ question: query, knowledge_base_ids: context.kb_ids, search_mode, top_k, min_score, rerank }),
  });
  expect(response.ok, await response.clone().text()).toBe(true);
  const data = (await response.json()) as { results?: WeknoraResult[]; total_count: number };
  const results = data.results || [];
  let text = `## Search Results\n\n**Query:** ${query}\n**Found:** ${results.length} results\n\n`;
  for (let i = 0; i < results.length; i++) {
    const r = results[i] as WeknoraResult;
    text += `#### [${i + 1}] ${r.knowledge_title || "Untitled"}\n`;
    text += `- **Score:** ${(r.score * 100).toFixed(1)}%\n`;
    text += `- **Source:** ${r.knowledge_filename || "Unknown"}\n\n`;
    text += `> ${r.content?.substring(0, 500)}${r.content?.length > 500 ? "..." : ""}\n\n`;
  }
  return { results, text, total_count: data.total_count };
}

// Everyday questions of the demo guide, and what the passage that answers contains (not one that
// only mentions the topic, such as the introduction quoting 怎么新建订单 as an example question).
const QUESTIONS: [string, RegExp][] = [
  ["怎么创建订单", /帮我新建订单|说出下面几项/],
  ["跳针怎么办", /跳针|质量问题诊断/],
  ["工资单确认后发现错了怎么办", /改正计件记录/],
  ["员工怎么登记计件", /登记/],
  ["忘记密码怎么办", /重置密码/],
  ["怎么设置工序单价", /工序和单价/],
  ["薪水怎么算", /件数 × /],
  ["员工辞职了怎么处理", /离职/],
];

async function knowledgeBaseId(name: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/knowledge-bases`, { headers: { Authorization: "Bearer dev-staff-key" } });
  const { knowledge_bases } = (await res.json()) as { knowledge_bases: { id: string; name: string }[] };
  const kb = knowledge_bases.find((k) => k.name === name);
  if (!kb) throw new Error(`npm run dev did not load '${name}'`);
  return kb.id;
}

describe("the seed's weknora_search client, unchanged, against npm run dev", () => {
  it.each(QUESTIONS)("answers %s from the guide alone with an on-topic first result at min_score 0.5", async (query, onTopic) => {
    const guide = await knowledgeBaseId("车间系统使用手册");
    const { results, text } = await weknoraSearch({ api_key: "dev-staff-key", kb_ids: [guide], base_url: baseUrl }, { query });
    expect(results.length, text).toBeGreaterThan(0);
    expect(results[0]?.content, text).toMatch(onTopic);
    for (const r of results) {
      expect(r.score).toBeGreaterThanOrEqual(0.5);
      expect(r.score).toBeLessThanOrEqual(1);
      expect(Object.keys(r).sort()).toEqual(
        ["content", "id", "knowledge_filename", "knowledge_id", "knowledge_title", "match_type", "score"].sort(),
      );
    }
    expect(text).toMatch(/\*\*Score:\*\* (\d{2}\.\d|100\.0)%/);
  });

  it.each(QUESTIONS)(
    "answers %s from every base, the demo FAQ included, with an on-topic first result",
    async (query, onTopic) => {
      const { results, text } = await weknoraSearch({ api_key: "dev-staff-key", base_url: baseUrl }, { query });
      expect(results.length, text).toBeGreaterThan(0);
      expect(results[0]?.content, text).toMatch(onTopic);
    },
  );

  it("finds nothing at min_score 0.5 for a question the workshop's bases do not answer", async () => {
    const guide = await knowledgeBaseId("车间系统使用手册");
    const { results, text } = await weknoraSearch(
      { api_key: "dev-staff-key", kb_ids: [guide], base_url: baseUrl },
      { query: "2022年世界杯冠军是哪个国家" },
    );
    expect(results, text).toEqual([]);
  });
});
