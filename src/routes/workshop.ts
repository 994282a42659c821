import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { apiKeyCache } from "../auth/key-cache.ts";
import { bearerAuth, requirePermission } from "../auth/middleware.ts";
import { badRequest } from "../errors.ts";
import { revokeAllTokens } from "../federation/oauth.ts";
import { listServers } from "../federation/server-store.ts";
import { deleteTenant } from "../tenants.ts";
import { validate } from "./validate.ts";
import { DeleteWorkshopSchema } from "./workshop.schema.ts";

/**
 * `/api/workshop`: the caller's own workshop. `DELETE ?confirm=<workshop id>` lets its admin close
 * it, deleting everything it holds (and revoking its external servers' OAuth tokens); nobody can
 * name another workshop here.
 */
export const workshopRoutes = new Hono<AppEnv>();

workshopRoutes.use(bearerAuth(), requirePermission("workshop:delete"));

workshopRoutes.delete("/", validate("query", DeleteWorkshopSchema), async (c) => {
  const { tenantId } = c.var.services.search;
  if (c.req.valid("query").confirm !== tenantId) {
    throw badRequest(`To delete your workshop and everything in it, repeat its id: ?confirm=${tenantId}.`);
  }
  const servers = await listServers(c.var.services.federation);
  const { search, actions, consult } = c.var.services;
  const deleted = await deleteTenant({
    workshop: search,
    directory: c.var.directory.db,
    objects: { actions: actions.objects, consultations: consult.sessions, chatStreams: c.var.services.chatStreams?.objects },
  });
  // The external servers' OAuth tokens would otherwise stay valid at their providers.
  await revokeAllTokens(c.var.services.federation, servers);
  // Other isolates stop accepting its keys within the cache's bound (KEY_CACHE_TTL_MS).
  apiKeyCache.forgetTenant(tenantId);
  return c.json({ id: tenantId, deleted: true, ...deleted });
});
