import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth, requireRole } from "../auth/middleware.ts";
import { createKnowledgeBase, listKnowledgeBases } from "../search/knowledge-bases.ts";
import { CreateKnowledgeBaseSchema } from "./knowledge-bases.schema.ts";
import { validate } from "./validate.ts";

/** `/api/knowledge-bases`: everyone in a workshop reads its bases; a boss creates them. */
export const knowledgeBaseRoutes = new Hono<AppEnv>();

knowledgeBaseRoutes.use(bearerAuth());

knowledgeBaseRoutes.get("/", async (c) => {
  const knowledge_bases = await listKnowledgeBases({ db: c.env.DB, tenantId: c.var.user.tenantId });
  return c.json({ knowledge_bases });
});

knowledgeBaseRoutes.post("/", requireRole("boss"), validate("json", CreateKnowledgeBaseSchema), async (c) => {
  const kb = await createKnowledgeBase({ db: c.env.DB, tenantId: c.var.user.tenantId, ...c.req.valid("json") });
  return c.json(kb, 201);
});
