import { env } from "cloudflare:test";
import { toolContext } from "../../src/tools/context.ts";
import { WEFT_TOOLS } from "../../src/tools/registry.ts";
import { runTool, type ToolOutcome } from "../../src/tools/run-tool.ts";
import type { UserContext } from "../../src/user-context.ts";

export const BOSS: UserContext = { userId: "u-boss", tenantId: "t-jinxiu", role: "boss" };
export const ADMIN: UserContext = { userId: "u-admin", tenantId: "t-jinxiu", role: "admin" };
export const STAFF: UserContext = { userId: "u-staff", tenantId: "t-jinxiu", role: "staff" };
export const STAFF2: UserContext = { userId: "u-staff2", tenantId: "t-jinxiu", role: "staff" };
export const OTHER_BOSS: UserContext = { userId: "u-other-boss", tenantId: "t-other", role: "boss" };

/** Runs one of Weft's tools for `user` the way every face does, optionally with a fixed clock. */
export async function tool(user: UserContext, name: string, input: Record<string, unknown>, now?: Date): Promise<ToolOutcome> {
  const found = WEFT_TOOLS.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  const ctx = toolContext({ env, user, requestId: "test", signal: new AbortController().signal });
  if (now) ctx.services.business.clock = () => now;
  return runTool(found, ctx, input);
}

/** The structured result of a tool that must succeed. */
export async function ok<T = Record<string, unknown>>(
  user: UserContext,
  name: string,
  input: Record<string, unknown>,
  now?: Date,
): Promise<T> {
  const outcome = await tool(user, name, input, now);
  if (!outcome.ok) throw new Error(`${name} failed: ${outcome.code}: ${outcome.message}`);
  if (outcome.kind === "pending_action") return outcome.action as T;
  return outcome.structured as T;
}

/** The failure of a tool that must fail. */
export async function fails(user: UserContext, name: string, input: Record<string, unknown>, now?: Date) {
  const outcome = await tool(user, name, input, now);
  if (outcome.ok) throw new Error(`${name} unexpectedly succeeded: ${JSON.stringify(outcome)}`);
  return outcome;
}

/** The workshop's local date today, as the tools see it (Asia/Shanghai). */
export function shanghaiToday(now = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone: "Asia/Shanghai",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(now);
}
