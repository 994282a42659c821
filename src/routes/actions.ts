import { Hono } from "hono";
import { cancelAction, confirmAction, getAction } from "../actions/actions.ts";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth } from "../auth/middleware.ts";

/**
 * Pending actions for the web UI's confirm cards, the action's owner only:
 * `GET /api/actions/:id`, `POST /api/actions/:id/confirm`, `POST /api/actions/:id/cancel`.
 * Each answers the action as JSON (`action_id`, `status`, `preview`, ..., `result` once confirmed).
 */
export const actionRoutes = new Hono<AppEnv>();

actionRoutes.use(bearerAuth());

actionRoutes.get("/:id", async (c) =>
  c.json(await getAction({ actions: c.var.services.actions, user: c.var.user, actionId: c.req.param("id") })),
);

actionRoutes.post("/:id/confirm", async (c) =>
  c.json(await confirmAction({ actions: c.var.services.actions, user: c.var.user, actionId: c.req.param("id") })),
);

actionRoutes.post("/:id/cancel", async (c) =>
  c.json(await cancelAction({ actions: c.var.services.actions, user: c.var.user, actionId: c.req.param("id") })),
);
