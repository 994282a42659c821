import { configFor } from "../config.ts";
import { buildServices, type Services } from "../services.ts";
import type { UserContext } from "../user-context.ts";
import type { ToolContext, ToolDataPart } from "./tool.ts";

/**
 * The one way any face builds a tool's context: the caller, the request id, an abort signal and
 * the domain services, wired once. `emit` is the face's sink for data parts (the chat streams
 * them; MCP leaves it out).
 *
 * @example const ctx = toolContext({ env: c.env, user: c.var.user, requestId: c.var.requestId, signal: c.req.raw.signal })
 */
export function toolContext({
  env,
  user,
  requestId,
  signal,
  emit,
  services,
}: {
  env: Env;
  user: UserContext;
  requestId: string;
  signal: AbortSignal;
  emit?: (part: ToolDataPart) => void;
  /** Services a face has already wired for this request (routes have them on `c.var`). */
  services?: Services;
}): ToolContext {
  const config = configFor(env);
  return { user, requestId, signal, config, services: services ?? buildServices(env, config), emit: emit ?? (() => {}) };
}
