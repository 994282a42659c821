import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth, requirePermission } from "../auth/middleware.ts";
import { noteFaqEntry, recentFeedback } from "../chat/feedback.ts";
import { getFaqEntry } from "../search/faq.ts";
import { validate } from "./validate.ts";

/**
 * `/api/feedback`: the workshop's ratings of chat answers, for a boss: the recent 👎 with the
 * question, the answer and what it looked at, and a note of the FAQ entry added from one.
 */
export const feedbackRoutes = new Hono<AppEnv>();

feedbackRoutes.use(bearerAuth({ latestReads: true }), requirePermission("feedback:read"));

const ListFeedbackQuerySchema = z.object({
  rating: z.enum(["up", "down"]).default("down"),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  before: z.iso.datetime().optional(),
});

/** `POST /api/feedback/:id/faq`: the FAQ entry (already saved with the FAQ routes) a boss added from a rating. */
const NoteFaqSchema = z.strictObject({
  kb_id: z.string().min(1).max(100),
  entry_id: z.string().min(1).max(100),
});

feedbackRoutes.get("/", validate("query", ListFeedbackQuerySchema), async (c) => {
  const { rating, limit, before } = c.req.valid("query");
  const people = c.var.services.actions.people;
  const feedback = await recentFeedback({
    store: c.var.services.chats,
    rating,
    limit,
    before,
    names: (ids) => people.names(ids),
  });
  return c.json({ feedback });
});

feedbackRoutes.post("/:id/faq", validate("json", NoteFaqSchema), async (c) => {
  const { kb_id, entry_id } = c.req.valid("json");
  // The entry must be the workshop's own: a hostile id names nothing.
  await getFaqEntry({ ...c.var.services.search, kbId: kb_id, id: entry_id });
  await noteFaqEntry({ store: c.var.services.chats, feedbackId: c.req.param("id"), kbId: kb_id, entryId: entry_id });
  return c.json({ id: c.req.param("id"), faq: { kb_id, entry_id } });
});
