import type { Config } from "../config.ts";
import type { UserContext } from "../user-context.ts";
import type { Confirming, ToolContext, ToolDataPart, ToolServices } from "./tool.ts";

/** A person in the browser: their yes is given on Weft's own card or page. */
const IN_BROWSER: Confirming = { by: "weft", credential: null, credentialId: "session" };

/**
 * The one way any face builds a tool's context: the caller, the request id, an abort signal, the
 * configuration and the domain services the face was given for this request (never rebuilt here,
 * so what the app wired, such as federation's loop protection, holds for every tool). `emit` is
 * the face's sink for data parts (the chat streams them; MCP leaves it out). The confirm page's
 * address comes with each pending action (the actions service knows the public origin).
 *
 * @example const ctx = toolContext({ user: c.var.user, requestId: c.var.requestId, signal: c.req.raw.signal, config: c.var.config, services: c.var.services, confirming: confirmingOf(c.var.credential) })
 */
export function toolContext({
  user,
  requestId,
  signal,
  config,
  services,
  confirming = IN_BROWSER,
  emit,
}: {
  user: UserContext;
  requestId: string;
  signal: AbortSignal;
  config: Config;
  services: ToolServices;
  /** What the credential allows in saying yes (`confirmingOf`); a browser session's when absent. */
  confirming?: Confirming;
  emit?: (part: ToolDataPart) => void;
}): ToolContext {
  return {
    user,
    requestId,
    signal,
    config,
    services,
    confirming,
    emit: emit ?? (() => {}),
  };
}
