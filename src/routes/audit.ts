import { Hono } from "hono";
import { listAudit } from "../actions/audit.ts";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth, requirePermission } from "../auth/middleware.ts";
import { personNames } from "../auth/person-names.ts";
import { AuditQuerySchema } from "./audit.schema.ts";
import { validate } from "./validate.ts";

/** `GET /api/audit`: the workshop's executed writes, newest first, paged (boss and admin). */
export const auditRoutes = new Hono<AppEnv>();

auditRoutes.use(bearerAuth(), requirePermission("audit:read"));

auditRoutes.get("/", validate("query", AuditQuerySchema), async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const { actions } = c.var.services;
  const result = await listAudit({ actions, limit, cursor });
  const names = await personNames({
    db: c.var.directory.db,
    tenantId: actions.tenantId,
    ids: result.items.map((e) => e.user_id),
  });
  const entries = result.items.map((entry) => ({ ...entry, user_name: names.get(entry.user_id) ?? null }));
  return c.json({ entries, next_cursor: result.next_cursor });
});
