import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { createApiKey, listApiKeys, revokeApiKey, setKeyConfirmBy } from "../auth/api-keys.ts";
import { bearerAuth, requirePermission } from "../auth/middleware.ts";
import { forbidden } from "../errors.ts";
import { CreateApiKeySchema, UpdateApiKeySchema } from "./api-keys.schema.ts";
import { validate } from "./validate.ts";

/**
 * `/api/keys`: everyone lists, creates and revokes their own API keys; an admin also those of
 * the people in their workshop (see `mayManageKeyOf`). Secrets are shown once, at creation.
 * `PATCH /api/keys/:id` sets who may say yes to a write prepared with a key (`confirm_by`): only
 * from a signed-in browser, so no key can widen that for itself.
 */
export const apiKeyRoutes = new Hono<AppEnv>();

apiKeyRoutes.use(bearerAuth(), requirePermission("keys:own"));

apiKeyRoutes.get("/", async (c) => {
  const keys = await listApiKeys({ db: c.var.directory.db, actor: c.var.user });
  return c.json({ keys });
});

apiKeyRoutes.post("/", validate("json", CreateApiKeySchema), async (c) => {
  const { name, user_id } = c.req.valid("json");
  const { key, summary } = await createApiKey({
    db: c.var.directory.db,
    actor: c.var.user,
    userId: user_id ?? c.var.user.userId,
    name,
  });
  return c.json({ key, ...summary, note: "Store this key now: it is not shown again." }, 201);
});

apiKeyRoutes.delete("/:id", async (c) => {
  const key = await revokeApiKey({ db: c.var.directory.db, actor: c.var.user, keyId: c.req.param("id") });
  return c.json(key);
});

apiKeyRoutes.patch("/:id", validate("json", UpdateApiKeySchema), async (c) => {
  if (c.var.credential.kind !== "session") {
    throw forbidden(
      "Who may confirm writes made with a key is set by a person signed in to Weft's settings, not with an API key.",
    );
  }
  const { confirm_by } = c.req.valid("json");
  return c.json(
    await setKeyConfirmBy({ db: c.var.directory.db, actor: c.var.user, keyId: c.req.param("id"), confirmBy: confirm_by }),
  );
});
