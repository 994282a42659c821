import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth } from "../auth/middleware.ts";
import { listConnections, revokeConnection } from "../auth/oauth-connections.ts";
import { oauthHelpers, oauthOrigin } from "../auth/oauth-server.ts";
import { notFound } from "../errors.ts";
import { validate } from "./validate.ts";

/**
 * `/api/oauth/connections`: the clients a person allowed to reach `/mcp` for them (an admin sees
 * their whole workshop's), and revoking one, which holds from the client's next request.
 */
export const oauthConnectionRoutes = new Hono<AppEnv>();

oauthConnectionRoutes.use(bearerAuth());

oauthConnectionRoutes.get("/", async (c) => {
  const connections = await listConnections({ db: c.var.directory.db, actor: c.var.user });
  return c.json({ connections });
});

oauthConnectionRoutes.delete("/:id", validate("param", z.object({ id: z.uuid() })), async (c) => {
  const origin = oauthOrigin(c.req.raw, c.var.config);
  if (!origin) throw notFound("OAuth is served over https (or http on localhost) only.");
  await revokeConnection({
    db: c.var.directory.db,
    oauth: oauthHelpers(origin, c.env),
    actor: c.var.user,
    id: c.req.valid("param").id,
  });
  return c.json({ revoked: true });
});
