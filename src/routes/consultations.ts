import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth } from "../auth/middleware.ts";
import { inspectConsultation } from "../consult/sessions.ts";

/** `GET /api/consultations/:id`: a session's state and path, for its owner (the web UI, debugging). */
export const consultationRoutes = new Hono<AppEnv>();

consultationRoutes.use(bearerAuth());

consultationRoutes.get("/:id", async (c) => {
  const inspection = await inspectConsultation({
    consult: c.var.services.consult,
    user: c.var.user,
    sessionId: c.req.param("id"),
  });
  const { session_id, view, record, trees, createdAt, updatedAt, expiresAt } = inspection;
  return c.json({
    state: { session_id, ...view },
    trees,
    current: record.step,
    path: record.path,
    inputs: record.inputs,
    created_at: createdAt,
    updated_at: updatedAt,
    expires_at: expiresAt,
  });
});
