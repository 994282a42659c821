import { env } from "cloudflare:test";
import { DEMO } from "../scripts/demo-data.ts";
import type { Confirmation } from "../src/actions/types.ts";
import { configFor } from "../src/config.ts";
import { cardText } from "../src/preview-text.ts";
import { type Services, servicesFor } from "../src/services.ts";
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

/** The services a request for `tenantId`'s workshop gets, wired the way authentication wires them. */
export function testServices(tenantId: string = users.boss.tenantId): Services {
  return servicesFor(env, configFor(env), { id: tenantId }, { origin: "http://weft.test" });
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
