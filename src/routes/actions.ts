import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth } from "../auth/middleware.ts";
import { cancelAction, confirmAction, getAction } from "../business/actions.ts";

/**
 * Pending actions for the web UI's confirm cards, the action's owner only:
 * `GET /api/actions/:id`, `POST /api/actions/:id/confirm`, `POST /api/actions/:id/cancel`.
 * Each answers the action as JSON (`action_id`, `status`, `preview`, ..., `result` once confirmed).
 */
export const actionRoutes = new Hono<AppEnv>();

actionRoutes.use(bearerAuth());

actionRoutes.get("/:id", async (c) =>
  c.json(await getAction({ business: c.var.services.business, user: c.var.user, actionId: c.req.param("id") })),
);

actionRoutes.post("/:id/confirm", async (c) =>
  c.json(await confirmAction({ business: c.var.services.business, user: c.var.user, actionId: c.req.param("id") })),
);

actionRoutes.post("/:id/cancel", async (c) =>
  c.json(await cancelAction({ business: c.var.services.business, user: c.var.user, actionId: c.req.param("id") })),
);
