import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { createInvite, listInvites, revokeInvite } from "../auth/invites.ts";
import { operatorAuth } from "../auth/operator.ts";
import { issuePasswordLink, passwordLinkUrl } from "../auth/password-links.ts";
import { usernameExists, usernameTaken } from "../auth/people.ts";
import { placementOf } from "../auth/placement.ts";
import { createWorkshop, listWorkshops } from "../auth/workshops.ts";
import { badRequest, notFound } from "../errors.ts";
import { resealStep } from "../federation/reseal.ts";
import { abortMove, moveStep } from "../placement/move.ts";
import { shardSummaries, workshopUsage } from "../placement/stats.ts";
import { reindexStep } from "../search/reindex.ts";
import { requireCurrentSchema, servicesFor, shardsOf } from "../services.ts";
import {
  CreateInviteSchema,
  CreateWorkshopSchema,
  ListWorkshopsQuerySchema,
  MoveSchema,
  ReindexSchema,
  ResealSchema,
} from "./admin.schema.ts";
import { validate } from "./validate.ts";

/**
 * `/api/admin`: the deployment's operator, with an operator key, and nobody else: the list of
 * workshops (name, when it signed up, how many people, the shard it lives on and how much it
 * stores there, as counts), creating a workshop with its first person (who gets a one-time link),
 * the shards, moving a workshop between them, one-time invite codes for `SIGNUP = "invite"`, and
 * the operations after a restore or a key change: rebuilding a workshop's indexes, sealing every
 * stored secret with the current key. No route here answers with what a workshop's data says.
 */
export const adminRoutes = new Hono<AppEnv>();

adminRoutes.use(operatorAuth());

adminRoutes.get("/workshops", validate("query", ListWorkshopsQuerySchema), async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const { items, next_cursor } = await listWorkshops({ db: c.var.directory.db, limit, cursor });
  const usage = await workshopUsage(shardsOf(c.env), items);
  return c.json({ workshops: items.map((w) => ({ ...w, usage: usage.get(w.id) })), next_cursor });
});

/**
 * Creates a workshop as a sign-up does (placed on a shard, with its starting knowledge bases and
 * guide) whose first person has no password yet: the answer carries their one-time set-password
 * link (24 hours, once), for the operator to send. How a deployment gets its first workshop while
 * `SIGNUP` is closed.
 */
adminRoutes.post("/workshops", validate("json", CreateWorkshopSchema), async (c) => {
  const body = c.req.valid("json");
  const db = c.var.directory.db;
  if (await usernameExists({ db, username: body.username })) throw usernameTaken(body.username);
  const { user, shard } = await createWorkshop({
    env: c.env,
    config: c.var.config,
    db,
    workshopName: body.workshop_name,
    boss: { name: body.name, username: body.username, passwordHash: null, role: body.role },
    shard: body.shard,
  });
  const link = await issuePasswordLink({
    db,
    tenantId: user.tenant_id,
    userId: user.id,
    createdBy: `operator:${c.var.operator.keyId}`,
  });
  const origin = c.var.config.publicUrl ?? new URL(c.req.url).origin;
  return c.json(
    {
      workshop: { id: user.tenant_id, name: user.tenant_name, shard },
      person: { id: user.id, name: user.name, username: body.username, role: user.role },
      set_password_url: passwordLinkUrl(origin, link.token),
      expires_at: link.expiresAt,
      note_to_operator:
        "Send the link to this person (WeChat, SMS): it sets their password once, within 24 hours, and is not shown again.",
    },
    201,
  );
});

/**
 * One bounded step of rebuilding a workshop's keyword index and vectors from its chunks (after a
 * restore, or D1 Time Travel): `npm run restore` calls it until `after` is null. Answers counts only.
 */
adminRoutes.post("/workshops/:id/reindex", validate("json", ReindexSchema), async (c) => {
  const workshop = await placementOf({ db: c.var.directory.db, workshopId: c.req.param("id") });
  if (!workshop) throw notFound(`No workshop '${c.req.param("id").slice(0, 80)}' in this Weft.`);
  await requireCurrentSchema(c.env, workshop);
  const { search } = servicesFor(c.env, c.var.config, workshop);
  const step = await reindexStep({ ...search, after: c.req.valid("json").after });
  return c.json({ workshop: workshop.id, ...step });
});

/**
 * One bounded step of sealing every stored secret (external servers' header values and OAuth
 * records, on every database) with the current key, opening each with it or the key a rotation
 * began from (`npm run secrets:rotate` calls it until `next_cursor` is null). Answers counts and
 * the ids of what no key opens, never a secret.
 */
adminRoutes.post("/secrets/reseal", validate("json", ResealSchema), async (c) => {
  const { secretsKey, olderSecretsKeys } = c.var.config.federation;
  if (!secretsKey) throw badRequest("MCP_SECRETS_KEY is not set: there is no key to seal with.");
  const shards = shardsOf(c.env);
  const names = [...shards.keys()];
  const { database, after } = resealCursor(c.req.valid("json").cursor, names);
  const step = await resealStep({ db: shards.get(database) as D1Database, secret: secretsKey, older: olderSecretsKeys, after });
  const following = names[names.indexOf(database) + 1];
  const next = step.after !== null ? { database, after: step.after } : following ? { database: following, after: null } : null;
  return c.json({
    database,
    resealed: step.resealed,
    current: step.current,
    unreadable: step.unreadable,
    rotating: olderSecretsKeys.length > 0,
    next_cursor: next ? JSON.stringify(next) : null,
  });
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

const ResealCursor = z.object({ database: z.string(), after: z.string().nullable() });

/** The database and last server id a reseal step goes on from: the first database when starting. */
function resealCursor(cursor: string | null, databases: string[]): { database: string; after: string | null } {
  if (cursor === null) return { database: databases[0] as string, after: null };
  let parsed: z.infer<typeof ResealCursor> | undefined;
  try {
    parsed = ResealCursor.parse(JSON.parse(cursor));
  } catch {
    parsed = undefined;
  }
  if (!parsed || !databases.includes(parsed.database)) throw badRequest("cursor: not a next_cursor this route gave.");
  return parsed;
}
