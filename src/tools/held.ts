import { holdAction } from "../actions/actions.ts";
import type { Prepared } from "../actions/types.ts";
import type { ToolOutput } from "../shapes.ts";
import type { ToolContext } from "./tool.ts";

/** A prepared write held for the caller's yes, as a prepare tool answers it. */
export async function held(ctx: ToolContext, prepared: Prepared): Promise<ToolOutput<never>> {
  const action = await holdAction({ actions: ctx.services.actions, user: ctx.user, prepared });
  return { kind: "pending_action", action };
}
