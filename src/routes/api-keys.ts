import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { createApiKey, listApiKeys, revokeApiKey } from "../auth/api-keys.ts";
import { bearerAuth, requirePermission } from "../auth/middleware.ts";
import { CreateApiKeySchema } from "./api-keys.schema.ts";
import { validate } from "./validate.ts";

/**
 * `/api/keys`: everyone lists, creates and revokes their own API keys; an admin also those of
 * the people in their workshop (see `mayManageKeyOf`). Secrets are shown once, at creation.
 */
export const apiKeyRoutes = new Hono<AppEnv>();

apiKeyRoutes.use(bearerAuth(), requirePermission("keys:own"));

apiKeyRoutes.get("/", async (c) => {
  const keys = await listApiKeys({ db: c.env.DB, actor: c.var.user });
  return c.json({ keys });
});

apiKeyRoutes.post("/", validate("json", CreateApiKeySchema), async (c) => {
  const { name, user_id } = c.req.valid("json");
  const { key, summary } = await createApiKey({ db: c.env.DB, actor: c.var.user, userId: user_id ?? c.var.user.userId, name });
  return c.json({ key, ...summary, note: "Store this key now: it is not shown again." }, 201);
});

apiKeyRoutes.delete("/:id", async (c) => {
  const key = await revokeApiKey({ db: c.env.DB, actor: c.var.user, keyId: c.req.param("id") });
  return c.json(key);
});
