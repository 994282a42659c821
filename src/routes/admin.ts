import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { createInvite, listInvites, revokeInvite } from "../auth/invites.ts";
import { operatorAuth } from "../auth/operator.ts";
import { listWorkshops } from "../auth/workshops.ts";
import { badRequest } from "../errors.ts";
import { abortMove, moveStep } from "../placement/move.ts";
import { shardSummaries, workshopUsage } from "../placement/stats.ts";
import { shardsOf } from "../services.ts";
import { CreateInviteSchema, ListWorkshopsQuerySchema, MoveSchema } from "./admin.schema.ts";
import { validate } from "./validate.ts";

/**
 * `/api/admin`: the deployment's operator, with an operator key, and nobody else: the list of
 * workshops (name, when it signed up, how many people, the shard it lives on and how much it
 * stores there, as counts), the shards, moving a workshop between them, and one-time invite codes
 * for `SIGNUP = "invite"`. No route here reads what a workshop's data says.
 */
export const adminRoutes = new Hono<AppEnv>();

adminRoutes.use(operatorAuth());

adminRoutes.get("/workshops", validate("query", ListWorkshopsQuerySchema), async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const { items, next_cursor } = await listWorkshops({ db: c.var.directory.db, limit, cursor });
  const usage = await workshopUsage(shardsOf(c.env), items);
  return c.json({ workshops: items.map((w) => ({ ...w, usage: usage.get(w.id) })), next_cursor });
});

adminRoutes.get("/shards", async (c) => c.json({ shards: await shardSummaries(shardsOf(c.env), c.var.directory.db) }));

/**
 * One bounded step of moving a workshop to another shard (`npm run workshop:move` calls it until it
 * says `done`); a step that must wait answers with `Retry-After`.
 */
adminRoutes.post("/workshops/:id/move", validate("json", MoveSchema), async (c) => {
  const context = { directory: c.var.directory.db, shards: shardsOf(c.env) };
  const report = await moveStep(context, { workshopId: c.req.param("id"), to: c.req.valid("json").to });
  if (report.retry_after_seconds !== undefined) c.header("Retry-After", String(report.retry_after_seconds));
  return c.json(report);
});

adminRoutes.post("/workshops/:id/move/abort", async (c) =>
  c.json(await abortMove({ directory: c.var.directory.db, shards: shardsOf(c.env) }, c.req.param("id"))),
);

adminRoutes.get("/invites", async (c) => c.json({ invites: await listInvites({ db: c.var.directory.db }) }));

adminRoutes.post("/invites", validate("json", CreateInviteSchema), async (c) => {
  const { note, days, shard } = c.req.valid("json");
  if (shard !== undefined && !shardsOf(c.env).has(shard)) throw badRequest(`No shard '${shard}' is bound to this Weft.`);
  const { code, invite } = await createInvite({ db: c.var.directory.db, note, days, shard: shard ?? null });
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
