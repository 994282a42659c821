import { Hono } from "hono";
import { cancelAction, confirmAction, getAction, refuseAgentConfirm } from "../actions/actions.ts";
import type { Confirmation } from "../actions/types.ts";
import type { AppEnv } from "../app-env.ts";
import { agentConfirmOf } from "../auth/credential.ts";
import { bearerAuth } from "../auth/middleware.ts";
import { badRequest } from "../errors.ts";
import { describeIssues } from "../validation.ts";
import { ConfirmActionSchema } from "./actions.schema.ts";
import { readJsonBody } from "./json-body.ts";

/**
 * Pending actions, the action's owner only: `GET /api/actions/:id`, `POST /api/actions/:id/confirm`,
 * `POST /api/actions/:id/cancel`. Each answers the action as JSON (`action_id`, `status`,
 * `preview`, ..., `result` once confirmed). Confirming is a person's path: a signed-in browser
 * (the chat's card, the confirm page) confirms; an API key only if its owner allowed agents to
 * confirm with it, so an agent cannot step around that rule through REST.
 */
export const actionRoutes = new Hono<AppEnv>();

actionRoutes.use(bearerAuth());

actionRoutes.get("/:id", async (c) =>
  c.json(await getAction({ actions: c.var.services.actions, user: c.var.user, actionId: c.req.param("id") })),
);

actionRoutes.post("/:id/confirm", async (c) => {
  const actions = c.var.services.actions;
  const actionId = c.req.param("id");
  // The chat's card sends no body; the confirm page says where it confirmed.
  const sent = c.req.header("Content-Length") === "0" || !c.req.raw.body ? {} : await readJsonBody(c);
  const parsed = ConfirmActionSchema.safeParse(sent);
  if (!parsed.success) throw badRequest(`Invalid request body: ${describeIssues(parsed.error)}`);
  const { via } = parsed.data;
  let confirmation: Confirmation;
  if (c.var.credential.kind === "session") confirmation = { via };
  else {
    const agent = agentConfirmOf(c.var.credential);
    if (!agent)
      return refuseAgentConfirm({
        actions,
        user: c.var.user,
        actionId,
        origin: c.var.config.publicUrl ?? new URL(c.req.url).origin,
      });
    confirmation = { via: "agent_key", keyPrefix: agent.keyPrefix };
  }
  return c.json(await confirmAction({ actions, user: c.var.user, actionId, confirmation }));
});

actionRoutes.post("/:id/cancel", async (c) =>
  c.json(await cancelAction({ actions: c.var.services.actions, user: c.var.user, actionId: c.req.param("id") })),
);
