import { WEFT_TOOLS } from "../../src/tools/registry.ts";
import { runTool, type ToolOutcome } from "../../src/tools/run-tool.ts";
import type { UserContext } from "../../src/user-context.ts";
import { testContext, users } from "../fixtures.ts";

export const BOSS: UserContext = users.boss;
export const ADMIN: UserContext = users.admin;
export const STAFF: UserContext = users.staff;
export const STAFF2: UserContext = users.staff2;
export const OTHER_BOSS: UserContext = users.otherBoss;

/**
 * Runs one of Weft's tools for `user` the way every face does, optionally with a fixed clock, as
 * an agent whose key may confirm writes (test/actions/confirmation.test.ts covers the others).
 */
export async function tool(user: UserContext, name: string, input: Record<string, unknown>, now?: Date): Promise<ToolOutcome> {
  const found = WEFT_TOOLS.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  const ctx = testContext(user, { confirming: { by: "agent", credential: "test-key", credentialId: "key:test" } });
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
