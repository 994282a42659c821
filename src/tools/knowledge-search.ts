import { z } from "zod";
import { type KnowledgeBase, listKnowledgeBases } from "../search/knowledge-bases.ts";
import { SEARCH_DEFAULTS, type SearchResult, searchKnowledge } from "../search/search.ts";
import { READ_ONLY } from "./business-fields.ts";
import { documentUri } from "./knowledge-links.ts";
import { defineTool } from "./tool.ts";
import { pick, said } from "./words.ts";

/**
 * A hit: where it comes from, to cite (knowledge base › document › page › heading; an FAQ entry's
 * base › question), the passage, its score (the chance it answers, 0-1), its source and knowledge
 * base, the document's title (an FAQ entry's question), file name, page (a PDF's) or sheet (a
 * workbook's) and heading, the whole document's resource URI (null for an FAQ entry) and the
 * passage's id.
 */
const HitSchema = z.object({
  citation: z.string(),
  content: z.string(),
  score: z.number(),
  source: z.enum(["document", "faq"]),
  knowledge_base: z.object({ id: z.string(), name: z.string() }),
  title: z.string(),
  file: z.string().nullable(),
  page: z.number().int().nullable(),
  sheet: z.string().nullable(),
  heading: z.string(),
  uri: z.string().nullable(),
  id: z.string(),
});

type Hit = z.output<typeof HitSchema>;

/** A search result as an agent cites it: with its knowledge base, its source and where to read the whole. */
function hitOf(result: SearchResult, base: KnowledgeBase | undefined): Hit {
  const faq = base?.type === "faq";
  // A document's first heading is usually its title, an FAQ entry's heading its question: said once.
  const heading = result.heading_path.startsWith(`${result.knowledge_title} > `)
    ? result.heading_path.slice(result.knowledge_title.length + 3)
    : result.heading_path === result.knowledge_title
      ? ""
      : result.heading_path;
  const baseName = base?.name ?? result.knowledge_base_id;
  const page = result.page ? `第 ${result.page} 页` : "";
  const where = faq
    ? [`${baseName}（FAQ）`, result.knowledge_title]
    : [baseName, result.knowledge_filename, page, heading || result.knowledge_title];
  return {
    citation: where.filter(Boolean).join(" › "),
    content: result.content,
    score: result.score,
    source: faq ? "faq" : "document",
    knowledge_base: { id: result.knowledge_base_id, name: baseName },
    title: result.knowledge_title,
    file: faq ? null : result.knowledge_filename,
    page: result.page ?? null,
    sheet: result.sheet ?? null,
    heading: result.heading_path,
    uri: faq ? null : documentUri(result.knowledge_base_id, result.knowledge_id),
    id: result.id,
  };
}

/** Hybrid search over the caller's knowledge bases (the WeKnora `weknora_search` tool, as Weft's own). */
export const knowledgeSearchTool = defineTool({
  name: "knowledge_search",
  words: {
    title: said("搜索知识库", "Search the knowledge bases"),
    icon: "knowledge",
    fields: { ...pick("query"), source: said("来源", "source"), top_k: said("条数", "results"), kb_ids: said("知识库", "bases") },
    results: { citation: said("出处", "source"), score: said("相关度", "score"), content: said("内容", "passage") },
    lists: { results: said("段落", "passages") },
    offer: said("搜索知识库（例如：“搜索知识库 如何新建订单”）", 'knowledge search ("search the manual for new orders")'),
  },
  description:
    "Search the workshop's manuals and FAQs for passages that answer a question; cite each hit by its citation, read " +
    "a document hit whole by its uri. An FAQ answer often ranks first: for the manual's passage too, search again " +
    "with source document. Thin results: rephrase or lower min_score.",
  inputSchema: z.object({
    query: z.string().trim().min(1).max(2000).describe("Natural language or keywords."),
    search_mode: z
      .enum(["hybrid", "vector", "keyword"])
      .default(SEARCH_DEFAULTS.mode)
      .describe("keyword for exact codes or names."),
    source: z.enum(["all", "document", "faq"]).default("all").describe("Only document or only FAQ bases."),
    top_k: z.number().int().min(1).max(50).default(SEARCH_DEFAULTS.topK).describe("Most results (1-50)."),
    min_score: z
      .number()
      .min(0)
      .max(1)
      .default(SEARCH_DEFAULTS.minScore)
      .describe("The least chance (0-1) that a passage answers."),
    rerank: z.boolean().default(SEARCH_DEFAULTS.rerank).describe("Rerank the candidates."),
    kb_ids: z.array(z.string().min(1)).max(100).optional().describe("Only these bases (list_knowledge_bases)."),
  }),
  outputSchema: z.object({
    summary: z.string(),
    results: z.array(HitSchema),
    totals: z.object({ results: z.number().int() }).describe("Passages at or above min_score, before top_k."),
  }),
  annotations: READ_ONLY,
  async run(ctx, input) {
    // The bases name each hit; read beside the search, unless a source must narrow it first.
    const listing = listKnowledgeBases(ctx.services.search);
    const search = (kbIds: string[] | undefined) =>
      kbIds && kbIds.length === 0
        ? Promise.resolve({ results: [], total_count: 0 })
        : searchKnowledge({
            ...ctx.services.search,
            request: {
              query: input.query,
              kbIds,
              mode: input.search_mode,
              topK: input.top_k,
              minScore: input.min_score,
              rerank: input.rerank,
            },
          });
    let found: Awaited<ReturnType<typeof search>>;
    let bases: KnowledgeBase[];
    if (input.source === "all") [found, bases] = await Promise.all([search(input.kb_ids), listing]);
    else {
      bases = await listing;
      const types = new Map(bases.map((kb) => [kb.id, kb.type]));
      // Only the bases of the source's type; an unknown id is kept, for the search to refuse it by name.
      found = await search(
        (input.kb_ids ?? bases.map((kb) => kb.id)).filter((id) => !types.has(id) || types.get(id) === input.source),
      );
    }
    const { results, total_count } = found;
    const byId = new Map(bases.map((kb) => [kb.id, kb]));
    const hits = results.map((result) => hitOf(result, byId.get(result.knowledge_base_id)));
    const where = input.source === "all" ? "" : input.source === "faq" ? "（只搜 FAQ）" : "（只搜文档）";
    const summary =
      hits.length === 0
        ? `“${input.query}”${where}：没有相关度达到 ${input.min_score} 的段落。可以换个说法、降低 min_score，或用 keyword 方式找确切的词。`
        : `“${input.query}”${where}：找到 ${hits.length} 段（共 ${total_count} 段相关度达到 ${input.min_score}），` +
          `最相关的是 ${hits[0]?.citation}。`;
    return { kind: "result", structured: { summary, results: hits, totals: { results: total_count } }, text: summary };
  },
});
