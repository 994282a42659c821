import { configFor } from "../config.ts";
import { buildServices, type Face } from "../services.ts";
import type { UserContext } from "../user-context.ts";
import type { ToolContext, ToolDataPart } from "./tool.ts";

/**
 * The one way any face builds a tool's context: the caller, the request id, an abort signal and
 * the domain services, wired once. `emit` is the face's sink for data parts (the chat streams
 * them; MCP leaves it out). `face` picks which external servers' tools are served (`/mcp` only
 * re-exposes those marked for it); tools themselves never see it.
 *
 * @example const ctx = toolContext({ env: c.env, user: c.var.user, requestId: c.var.requestId, signal: c.req.raw.signal })
 */
export function toolContext({
  env,
  user,
  requestId,
  signal,
  emit,
  face,
}: {
  env: Env;
  user: UserContext;
  requestId: string;
  signal: AbortSignal;
  emit?: (part: ToolDataPart) => void;
  face?: Face;
}): ToolContext {
  const config = configFor(env);
  return { user, requestId, signal, config, services: buildServices(env, config, { face }), emit: emit ?? (() => {}) };
}
