import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { createInvite, listInvites, revokeInvite } from "../auth/invites.ts";
import { operatorAuth } from "../auth/operator.ts";
import { listWorkshops } from "../auth/workshops.ts";
import { CreateInviteSchema, ListWorkshopsQuerySchema } from "./admin.schema.ts";
import { validate } from "./validate.ts";

/**
 * `/api/admin`: the deployment's operator, with an operator key, and nobody else: the list of
 * workshops (directory facts only: name, when it signed up, how many people) and one-time invite
 * codes for `SIGNUP = "invite"`. No route here reads a workshop's own data.
 */
export const adminRoutes = new Hono<AppEnv>();

adminRoutes.use(operatorAuth());

adminRoutes.get("/workshops", validate("query", ListWorkshopsQuerySchema), async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const { items, next_cursor } = await listWorkshops({ db: c.var.directory.db, limit, cursor });
  return c.json({ workshops: items, next_cursor });
});

adminRoutes.get("/invites", async (c) => c.json({ invites: await listInvites({ db: c.var.directory.db }) }));

adminRoutes.post("/invites", validate("json", CreateInviteSchema), async (c) => {
  const { note, days } = c.req.valid("json");
  const { code, invite } = await createInvite({ db: c.var.directory.db, note, days });
  const origin = c.var.config.publicUrl ?? new URL(c.req.url).origin;
  return c.json(
    {
      code,
      sign_up_url: `${origin}/sign-up#invite=${code}`,
      ...invite,
      note_to_operator: "Send the code (or the link) to the workshop's boss: it is not shown again and works once.",
    },
    201,
  );
});

adminRoutes.delete("/invites/:id", async (c) => c.json(await revokeInvite({ db: c.var.directory.db, id: c.req.param("id") })));
