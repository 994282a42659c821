import { Hono } from "hono";
import { cancelAction, confirmAction, getAction, refuseConfirm } from "../actions/actions.ts";
import { IN_PROGRESS_RETRY_SECONDS } from "../actions/pending-action.ts";
import type { Confirmation } from "../actions/types.ts";
import type { AppEnv } from "../app-env.ts";
import { confirmingOf } from "../auth/credential.ts";
import { bearerAuth } from "../auth/middleware.ts";
import { badRequest } from "../errors.ts";
import { agentPreviewText, cardText } from "../preview-text.ts";
import { confirmAllows } from "../tools/confirm-by.ts";
import { describeIssues } from "../validation.ts";
import { ConfirmActionSchema } from "./actions.schema.ts";
import { readJsonBody } from "./json-body.ts";

/**
 * Pending actions, the action's owner only: `GET /api/actions/:id`, `POST /api/actions/:id/confirm`,
 * `POST /api/actions/:id/cancel`. Each answers the action in its wire shape (`action_id`,
 * `status`, `preview`, `confirm_url`, ..., `result` once confirmed). Confirming is a person's path:
 * a signed-in browser (the chat's card, the confirm page) confirms; an API key only if its owner
 * chose `confirm_by: agent`, so an agent cannot step around that rule through REST. An action a
 * confirm is writing right now reads `confirming` (with `Retry-After`), and another confirm of it
 * is answered at once: its result if the write is in D1, else 409 `action_in_progress`.
 */
export const actionRoutes = new Hono<AppEnv>();

actionRoutes.use(bearerAuth());

actionRoutes.get("/:id", async (c) => {
  const view = await getAction({ actions: c.var.services.actions, user: c.var.user, actionId: c.req.param("id") });
  if (view.status === "confirming") c.header("Retry-After", String(IN_PROGRESS_RETRY_SECONDS));
  return c.json(view);
});

actionRoutes.post("/:id/confirm", async (c) => {
  const actions = c.var.services.actions;
  const actionId = c.req.param("id");
  const confirming = confirmingOf(c.var.credential);
  let confirmation: Confirmation;
  if (c.var.credential.kind === "session") {
    // The chat's card sends no body; the confirm page says where it confirmed and in which language.
    const sent = c.req.header("Content-Length") === "0" || !c.req.raw.body ? {} : await readJsonBody(c);
    const parsed = ConfirmActionSchema.safeParse(sent);
    if (!parsed.success) throw badRequest(`Invalid request body: ${describeIssues(parsed.error)}`);
    const { via, lang } = parsed.data;
    confirmation = { via, credential: null, shown: (action) => cardText(action, lang) };
  } else if (confirmAllows(confirming.by, "agent")) {
    confirmation = { via: "agent_key", credential: confirming.credential, shown: agentPreviewText };
  } else {
    return refuseConfirm({
      actions,
      user: c.var.user,
      actionId,
      why: "This key may not confirm writes on its own (its owner can choose confirm_by 'agent' in Weft's settings).",
    });
  }
  return c.json(await confirmAction({ actions, user: c.var.user, actionId, confirmation }));
});

actionRoutes.post("/:id/cancel", async (c) =>
  c.json(await cancelAction({ actions: c.var.services.actions, user: c.var.user, actionId: c.req.param("id") })),
);
