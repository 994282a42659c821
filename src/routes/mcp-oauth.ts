import { type Context, Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { AppError, badRequest } from "../errors.ts";
import { finishSignIn } from "../federation/oauth.ts";
import { getServer, type ServerRecord } from "../federation/server-store.ts";
import { refreshTools } from "../federation/service.ts";
import { log } from "../log.ts";
import { validate } from "./validate.ts";

const CallbackSchema = z.object({
  state: z.string().min(1).max(200).optional(),
  code: z.string().min(1).max(2000).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
});

/** How a sign-in ended, as the settings page reads it from its URL (`?mcp_sign_in=`). */
type Outcome = "ok" | "denied" | "expired" | "failed";

/**
 * Sends a person's browser back to the UI, whose settings page reads the outcome: a fixed code and
 * the server's id, never the provider's own words (anyone can craft a callback link, and its text
 * would then appear on Weft's page).
 */
function backToSettings(c: Context<AppEnv>, outcome: Outcome, serverId?: string): Response {
  const query = new URLSearchParams({ mcp_sign_in: outcome, ...(serverId ? { server: serverId } : {}) });
  return c.redirect(`/?${query}`, 303);
}

/**
 * `/api/mcp/oauth/callback`: where an MCP server's authorization server sends the boss back. It
 * carries no API key (it is a browser redirect): the single-use, ten-minute `state` is what ties it
 * to the server a boss started signing in to. A browser (it asks for HTML) is sent on to the
 * settings page, success or not; other clients get JSON and the usual error statuses.
 */
export const mcpOAuthRoutes = new Hono<AppEnv>();

mcpOAuthRoutes.get("/callback", validate("query", CallbackSchema), async (c) => {
  const { state, code, error, error_description } = c.req.valid("query");
  const browser = (c.req.header("Accept") ?? "").includes("text/html");
  const service = c.var.services.federation;
  let signedIn: ServerRecord;
  try {
    if (error) throw badRequest(`The sign-in was not completed: ${error}${error_description ? ` (${error_description})` : ""}.`);
    if (!state || !code) throw badRequest("The callback needs 'state' and 'code'.");
    signedIn = await finishSignIn(service, { state, code });
  } catch (failed) {
    if (!browser || !(failed instanceof AppError)) throw failed;
    return backToSettings(c, error ? "denied" : failed.code === "not_found" ? "expired" : "failed");
  }
  const server = await getServer({ db: service.db, tenantId: signedIn.tenantId, id: signedIn.id });
  let toolCount: number | null = null;
  try {
    toolCount = (await refreshTools(service, server)).tools.length;
  } catch (refreshError) {
    log("warn", "mcp_refresh_after_sign_in_failed", { server_id: server.id, error: refreshError });
  }
  if (browser) return backToSettings(c, "ok", server.id);
  return c.json({ server_id: server.id, name: server.name, signed_in: true, tool_count: toolCount });
});
