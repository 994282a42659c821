import { Hono } from "hono";
import { listAudit } from "../actions/audit.ts";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth, requirePermission } from "../auth/middleware.ts";
import { AuditQuerySchema } from "./audit.schema.ts";
import { validate } from "./validate.ts";

/** `GET /api/audit`: the workshop's executed writes, newest first, paged (boss and admin). */
export const auditRoutes = new Hono<AppEnv>();

auditRoutes.use(bearerAuth(), requirePermission("audit:read"));

auditRoutes.get("/", validate("query", AuditQuerySchema), async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const result = await listAudit({ actions: c.var.services.actions, limit, cursor });
  return c.json({ entries: result.items, next_cursor: result.next_cursor });
});
