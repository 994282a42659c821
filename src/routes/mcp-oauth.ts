import { type Context, Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { sessionToken } from "../auth/session-cookie.ts";
import { findWebSession } from "../auth/web-sessions.ts";
import { AppError, badRequest, notFound } from "../errors.ts";
import { refreshTools } from "../federation/contact.ts";
import { finishSignIn, workshopOfState } from "../federation/oauth.ts";
import { UNKNOWN_STATE } from "../federation/oauth-store.ts";
import { getServer, type ServerRecord } from "../federation/server-store.ts";
import { log } from "../log.ts";
import { servicesFor } from "../services.ts";
import type { UserContext } from "../user-context.ts";
import { validate } from "./validate.ts";

const CallbackSchema = z.object({
  state: z.string().min(1).max(200).optional(),
  code: z.string().min(1).max(2000).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
});

/**
 * How a sign-in ended, as the UI reads it from its URL (`?mcp_sign_in=`); `expired`: the state is
 * unknown, used or past its ten minutes; `not_allowed`: the state is good but the browser was not
 * signed in to Weft as someone who may manage the server, and nothing changed.
 */
type Outcome = "ok" | "denied" | "expired" | "failed" | "not_allowed";

function outcomeOf(failed: AppError, providerError: boolean): Outcome {
  if (providerError) return "denied";
  if (failed.code === "unauthorized" || failed.code === "forbidden") return "not_allowed";
  return failed.code === "not_found" ? "expired" : "failed";
}

/**
 * The person whose browser the provider sent back: the Weft session cookie only (SameSite=Lax, so
 * it rides on the provider's top-level redirect), or nobody. An API key proves nothing about who
 * approved at the provider, so it does not count here.
 */
async function sessionPerson(c: Context<AppEnv>): Promise<UserContext | null> {
  const token = sessionToken(c);
  const session = token ? await findWebSession({ db: c.var.directory.db, token }) : null;
  return session ? { userId: session.userId, tenantId: session.tenantId, role: session.role } : null;
}

/**
 * Sends a person's browser back to the UI, which shows the outcome to whoever is there (the
 * settings page for a boss, a notice for anyone else): a fixed code and the server's id, never the
 * provider's own words (anyone can craft a callback link, and its text would then appear on
 * Weft's page).
 */
function backToUi(c: Context<AppEnv>, outcome: Outcome, serverId?: string): Response {
  const query = new URLSearchParams({ mcp_sign_in: outcome, ...(serverId ? { server: serverId } : {}) });
  return c.redirect(`/?${query}`, 303);
}

/**
 * `/api/mcp/oauth/callback`: where an MCP server's authorization server sends the boss back. It
 * carries no API key (it is a browser redirect): the single-use, ten-minute `state` ties it to the
 * server a sign-in was started for, and the browser's Weft session must be of someone who may
 * manage that server (see `finishSignIn`, which checks the state first: an unknown one is 404 for
 * anyone). A browser (it asks for HTML) is sent on to the UI, success or not, which shows the
 * outcome to whoever is signed in; other clients get JSON and the usual error statuses.
 */
export const mcpOAuthRoutes = new Hono<AppEnv>();

mcpOAuthRoutes.get("/callback", validate("query", CallbackSchema), async (c) => {
  const { state, code, error, error_description } = c.req.valid("query");
  const browser = (c.req.header("Accept") ?? "").includes("text/html");
  // Nobody is authenticated yet: the state names the workshop whose services hold the sign-in.
  const workshop = state ? workshopOfState(state) : null;
  const service = workshop
    ? servicesFor(c.env, c.var.config, { id: workshop }, { origin: new URL(c.req.url).origin }).federation
    : null;
  let signedIn: ServerRecord;
  try {
    if (error) throw badRequest(`The sign-in was not completed: ${error}${error_description ? ` (${error_description})` : ""}.`);
    if (!state || !code) throw badRequest("The callback needs 'state' and 'code'.");
    if (!service) throw notFound(UNKNOWN_STATE);
    signedIn = await finishSignIn(service, { state, code, user: await sessionPerson(c) });
  } catch (failed) {
    if (!browser || !(failed instanceof AppError)) throw failed;
    return backToUi(c, outcomeOf(failed, Boolean(error)));
  }
  const server = await getServer({ ...service, id: signedIn.id });
  let toolCount: number | null = null;
  try {
    toolCount = (await refreshTools(service, server)).tools.length;
  } catch (refreshError) {
    log("warn", "mcp_refresh_after_sign_in_failed", { server_id: server.id, error: refreshError });
  }
  if (browser) return backToUi(c, "ok", server.id);
  return c.json({ server_id: server.id, name: server.name, signed_in: true, tool_count: toolCount });
});
