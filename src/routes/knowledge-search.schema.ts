import { z } from "zod";
import { SEARCH_DEFAULTS } from "../search/search.ts";

/**
 * The WeKnora `/api/v1/knowledge-search` request, field for field. Strict: a misspelt or singular
 * `knowledge_base_id` dropped quietly would search every base instead of the one asked for.
 */
export const KnowledgeSearchSchema = z.strictObject({
  question: z.string().trim().min(1).max(2000),
  knowledge_base_ids: z.array(z.string().min(1)).max(100).optional(),
  search_mode: z.enum(["hybrid", "vector", "keyword"]).default(SEARCH_DEFAULTS.mode),
  top_k: z.number().int().min(1).max(50).default(SEARCH_DEFAULTS.topK),
  min_score: z.number().min(0).max(1).default(SEARCH_DEFAULTS.minScore),
  rerank: z.boolean().default(SEARCH_DEFAULTS.rerank),
});
