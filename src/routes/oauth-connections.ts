import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth } from "../auth/middleware.ts";
import { listConnections, revokeConnection, setConnectionConfirmBy } from "../auth/oauth-connections.ts";
import { oauthHelpers, oauthOrigin } from "../auth/oauth-server.ts";
import { forbidden, notFound } from "../errors.ts";
import { CONFIRM_BY } from "../tools/confirm-by.ts";
import { validate } from "./validate.ts";

/**
 * `/api/oauth/connections`: the clients a person allowed to reach `/mcp` for them (an admin sees
 * their whole workshop's), changing who may say yes to the writes one prepares (`confirm_by`, from
 * a signed-in browser only), and revoking one; both hold from the client's next request.
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

const ConnectionChangeSchema = z.strictObject({
  confirm_by: z
    .enum(CONFIRM_BY)
    .describe("Who may say yes to a write the app prepares: 'weft', 'client' (the app asks its person) or 'agent'."),
});

oauthConnectionRoutes.patch(
  "/:id",
  validate("param", z.object({ id: z.uuid() })),
  validate("json", ConnectionChangeSchema),
  async (c) => {
    if (c.var.credential.kind !== "session") {
      throw forbidden("Who may confirm an app's writes is set by a person signed in to Weft's settings, not with an API key.");
    }
    const connection = await setConnectionConfirmBy({
      db: c.var.directory.db,
      actor: c.var.user,
      id: c.req.valid("param").id,
      confirmBy: c.req.valid("json").confirm_by,
    });
    return c.json(connection);
  },
);
