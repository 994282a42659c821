import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { badRequest } from "../errors.ts";
import { finishSignIn } from "../federation/oauth.ts";
import { getServer } from "../federation/server-store.ts";
import { refreshTools } from "../federation/service.ts";
import { log } from "../log.ts";
import { validate } from "./validate.ts";

const CallbackSchema = z.object({
  state: z.string().min(1).max(200).optional(),
  code: z.string().min(1).max(2000).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
});

/**
 * `/api/mcp/oauth/callback`: where an MCP server's authorization server sends the boss back. It
 * carries no API key (it is a browser redirect): the single-use, ten-minute `state` is what ties it
 * to the server a boss started signing in to.
 */
export const mcpOAuthRoutes = new Hono<AppEnv>();

mcpOAuthRoutes.get("/callback", validate("query", CallbackSchema), async (c) => {
  const { state, code, error, error_description } = c.req.valid("query");
  if (error) throw badRequest(`The sign-in was not completed: ${error}${error_description ? ` (${error_description})` : ""}.`);
  if (!state || !code) throw badRequest("The callback needs 'state' and 'code'.");
  const service = c.var.services.federation;
  const signedIn = await finishSignIn(service, { state, code });
  const server = await getServer({ db: service.db, tenantId: signedIn.tenantId, id: signedIn.id });
  let toolCount: number | null = null;
  try {
    toolCount = (await refreshTools(service, server)).tools.length;
  } catch (refreshError) {
    log("warn", "mcp_refresh_after_sign_in_failed", { server_id: server.id, error: refreshError });
  }
  return c.json({ server_id: server.id, name: server.name, signed_in: true, tool_count: toolCount });
});
