import { env } from "cloudflare:test";
import { DEMO, type DemoSeed } from "../scripts/demo-data.ts";
import type { Confirmation } from "../src/actions/types.ts";
import { configFor } from "../src/config.ts";
import { cardText } from "../src/preview-text.ts";
import { PRIMARY_SHARD, type Services, servicesFor, shardsOf, type WorkshopRef } from "../src/services.ts";
import { deleteTenant } from "../src/tenants.ts";
import { toolContext } from "../src/tools/context.ts";
import type { Confirming, ToolContext } from "../src/tools/tool.ts";
import type { UserContext } from "../src/user-context.ts";

// The demo people every test file starts with (scripts/demo-data.ts), by name: their callers,
// their development API keys and their web sign-in.

const demo = (id: string) => {
  const user = DEMO.users.find((u) => u.id === id);
  if (!user) throw new Error(`no demo user ${id}`);
  return user;
};
const callerOf = (id: string): UserContext => {
  const user = demo(id);
  return { userId: user.id, tenantId: user.tenantId, role: user.role };
};

/** Who each demo person is, as the domains and tools see them. */
export const users = {
  admin: callerOf("u-admin"),
  boss: callerOf("u-boss"),
  staff: callerOf("u-staff"),
  staff2: callerOf("u-staff2"),
  otherBoss: callerOf("u-other-boss"),
} as const satisfies Record<string, UserContext>;

/** Each demo person's development API key. */
export const keys = {
  admin: demo("u-admin").key,
  boss: demo("u-boss").key,
  staff: demo("u-staff").key,
  staff2: demo("u-staff2").key,
  otherBoss: demo("u-other-boss").key,
} as const;

/** Each demo person's web sign-in. */
export const logins = {
  admin: { username: demo("u-admin").username, password: demo("u-admin").password },
  boss: { username: demo("u-boss").username, password: demo("u-boss").password },
  staff: { username: demo("u-staff").username, password: demo("u-staff").password },
  staff2: { username: demo("u-staff2").username, password: demo("u-staff2").password },
  otherBoss: { username: demo("u-other-boss").username, password: demo("u-other-boss").password },
} as const;

/**
 * Where a workshop of the tests lives: a demo workshop on its demo shard; any other (one a test
 * makes itself) on the primary database, where workshops from before shards live.
 */
export function workshopOf(tenantId: string, shard?: string): WorkshopRef {
  const demoShard = DEMO.tenants.find((t) => t.id === tenantId)?.shard;
  return { id: tenantId, shard: shard ?? demoShard ?? PRIMARY_SHARD };
}

/** The database a workshop's own data is on (the directory is always `env.DB`). */
export function dbOf(tenantId: string): D1Database {
  return shardsOf(env).get(workshopOf(tenantId).shard) as D1Database;
}

/**
 * Writes the demo rows as `npm run dev` does: the directory's on the primary database, each
 * workshop's on the shard the directory places it on.
 */
export async function applyDemoSeed(seed: DemoSeed): Promise<void> {
  await env.DB.batch(seed.directory.map((sql) => env.DB.prepare(sql)));
  for (const [workshopId, statements] of Object.entries(seed.workshops)) {
    const placed = await env.DB.prepare("SELECT shard FROM tenants WHERE id = ?1").bind(workshopId).first<{ shard: string }>();
    const db = shardsOf(env).get(placed?.shard ?? PRIMARY_SHARD) as D1Database;
    await db.batch(statements.map((sql) => db.prepare(sql)));
  }
}

/** Deletes a workshop as its admin's `DELETE /api/workshop` does, with the services wired for it. */
export function deleteWorkshop(tenantId: string): ReturnType<typeof deleteTenant> {
  const { search, actions, consult } = testServices(tenantId);
  return deleteTenant({
    workshop: search,
    directory: env.DB,
    objects: { actions: actions.objects, consultations: consult.sessions, chatStreams: env.CHAT_STREAM },
  });
}

/** The services a request for `tenantId`'s workshop gets (on `shard`, for one placed by the test), wired as authentication wires them. */
export function testServices(tenantId: string = users.boss.tenantId, shard?: string): Services {
  return servicesFor(env, configFor(env), workshopOf(tenantId, shard), { origin: "http://weft.test" });
}

/** A tool context for `user`, as a face builds it, over freshly wired services. */
export function testContext(
  user: UserContext,
  {
    services = testServices(user.tenantId),
    requestId = "test",
    confirming,
  }: { services?: Services; requestId?: string; confirming?: Confirming } = {},
): ToolContext {
  return toolContext({
    user,
    requestId,
    signal: new AbortController().signal,
    config: configFor(env),
    services,
    ...(confirming ? { confirming } : {}),
  });
}

/** A person's yes on the chat's confirm card, its preview shown in Chinese: the confirmation most tests give. */
export const onTheCard: Confirmation = { via: "card", credential: null, shown: (action) => cardText(action, "zh") };
