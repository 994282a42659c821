import { z } from "zod";
import { faqFilename } from "../search/faq.ts";
import { SEARCH_DEFAULTS, type SearchResult, searchKnowledge } from "../search/search.ts";
import { defineTool } from "./tool.ts";

const EXCERPT = 500;

const ResultSchema = z.object({
  id: z.string(),
  content: z.string(),
  score: z.number(),
  knowledge_id: z.string(),
  knowledge_title: z.string(),
  knowledge_filename: z.string(),
  match_type: z.enum(["hybrid", "vector", "keyword"]),
  knowledge_base_id: z.string(),
  heading_path: z.string(),
  position: z.number().int(),
  page: z.number().int().nullable(),
  sheet: z.string().nullable(),
});

function markdown(query: string, results: SearchResult[], total: number): string {
  if (results.length === 0) {
    return `## Search results\n\n**Query:** ${query}\n\nNo passages found. Try other keywords, a lower min_score, or another search_mode.`;
  }
  const items = results.map((r, i) => {
    // An FAQ entry has no file: its source is the FAQ, by the question that matched (its title is the standard one).
    const where =
      r.knowledge_filename === faqFilename(r.knowledge_id)
        ? ["FAQ", r.heading_path !== r.knowledge_title ? r.heading_path : ""].filter(Boolean).join(" › ")
        : [r.knowledge_filename, r.page ? `第 ${r.page} 页` : "", r.heading_path].filter(Boolean).join(" › ");
    const excerpt = r.content.length > EXCERPT ? `${r.content.slice(0, EXCERPT)}…` : r.content;
    return `### [${i + 1}] ${r.knowledge_title}\n- **Score:** ${(r.score * 100).toFixed(1)}%\n- **Source:** ${where}\n\n> ${excerpt.replace(/\n/g, "\n> ")}`;
  });
  return `## Search results\n\n**Query:** ${query}\n**Found:** ${results.length} of ${total}\n\n${items.join("\n\n")}`;
}

/** Hybrid search over the caller's knowledge bases (the WeKnora `weknora_search` tool, as Weft's own). */
export const knowledgeSearchTool = defineTool({
  name: "knowledge_search",
  title: "Search knowledge bases",
  description:
    "Search the workshop's knowledge bases (manuals, procedures, FAQs) for passages that answer a question, in Chinese " +
    "or English. Use it before answering questions that depend on the workshop's own documents, and cite the source of " +
    "what you use. Hybrid mode (keyword + vector, reranked) suits most questions; use keyword for exact codes or names. " +
    "If results are thin, rephrase, split the question, or lower min_score. Narrow to bases with kb_ids from list_knowledge_bases.",
  inputSchema: z.object({
    query: z.string().trim().min(1).max(2000).describe("Search query: natural language or keywords."),
    search_mode: z
      .enum(["hybrid", "vector", "keyword"])
      .default(SEARCH_DEFAULTS.mode)
      .describe("hybrid (recommended), vector (meaning), or keyword (exact words)."),
    top_k: z.number().int().min(1).max(50).default(SEARCH_DEFAULTS.topK).describe("Maximum results to return (1-50)."),
    min_score: z
      .number()
      .min(0)
      .max(1)
      .default(SEARCH_DEFAULTS.minScore)
      .describe("Minimum relevance score (0-1): the estimated chance that a passage answers the query, the same in every mode."),
    rerank: z.boolean().default(SEARCH_DEFAULTS.rerank).describe("Rerank candidates for better relevance."),
    kb_ids: z
      .array(z.string().min(1))
      .max(100)
      .optional()
      .describe("Only these knowledge bases (ids from list_knowledge_bases). Omit for all."),
  }),
  outputSchema: z.object({ results: z.array(ResultSchema), total_count: z.number().int() }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    const { results, total_count } = await searchKnowledge({
      ...ctx.services.search,
      request: {
        query: input.query,
        kbIds: input.kb_ids,
        mode: input.search_mode,
        topK: input.top_k,
        minScore: input.min_score,
        rerank: input.rerank,
      },
    });
    return { kind: "result", structured: { results, total_count }, text: markdown(input.query, results, total_count) };
  },
});
