import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth } from "../auth/middleware.ts";
import { searchKnowledge } from "../search/search.ts";
import { KnowledgeSearchSchema } from "./knowledge-search.schema.ts";
import { validate } from "./validate.ts";

/**
 * `POST /api/v1/knowledge-search`: WeKnora's search API, request and response as its design
 * gives them, so a WeKnora integration can point at Weft unchanged.
 */
export const knowledgeSearchRoutes = new Hono<AppEnv>();

knowledgeSearchRoutes.use(bearerAuth());

knowledgeSearchRoutes.post("/", validate("json", KnowledgeSearchSchema), async (c) => {
  const body = c.req.valid("json");
  const { results, total_count } = await searchKnowledge({
    ...c.var.services.search,
    request: {
      query: body.question,
      kbIds: body.knowledge_base_ids,
      mode: body.search_mode,
      topK: body.top_k,
      minScore: body.min_score,
      rerank: body.rerank,
    },
  });
  return c.json({
    results: results.map(({ id, content, score, knowledge_id, knowledge_title, knowledge_filename, match_type }) => ({
      id,
      content,
      score,
      knowledge_id,
      knowledge_title,
      knowledge_filename,
      match_type,
    })),
    total_count,
  });
});
