import { Hono } from "hono";
import { z } from "zod";
import { getAuditEntry, listAudit } from "../actions/audit.ts";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth, requirePermission } from "../auth/middleware.ts";
import { AuditQuerySchema } from "./audit.schema.ts";
import { validate } from "./validate.ts";

/**
 * `GET /api/audit`: the workshop's executed writes, newest first, paged (boss and admin), and
 * `GET /api/audit/:id`: one entry with the preview text its person was shown, to check against
 * its `shown_sha256`. The audit is append-only: no route changes or deletes an entry.
 */
export const auditRoutes = new Hono<AppEnv>();

auditRoutes.use(bearerAuth(), requirePermission("audit:read"));

auditRoutes.get("/", validate("query", AuditQuerySchema), async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const result = await listAudit({ actions: c.var.services.actions, limit, cursor });
  return c.json({ entries: result.items, next_cursor: result.next_cursor });
});

auditRoutes.get("/:id", validate("param", z.object({ id: z.string().min(1).max(200) })), async (c) =>
  c.json(await getAuditEntry({ actions: c.var.services.actions, id: c.req.valid("param").id })),
);
