import { z } from "zod";
import type { PendingAction } from "../shapes.ts";
import { ACTION_STATUSES } from "../status-words.ts";

/** A pending action as confirm_action and cancel_action return it: the shared wire shape, checked at compile time. */
export const ActionViewSchema = z.object({
  action_id: z.string(),
  kind: z.string().describe("The kind of write: piece_record, order, external_call, ..."),
  status: z.enum(ACTION_STATUSES),
  summary: z.string(),
  preview: z.array(z.object({ label: z.string(), value: z.string() })),
  ambiguities: z.array(
    z.object({ field: z.string(), message: z.string(), candidates: z.array(z.object({ id: z.string(), label: z.string() })) }),
  ),
  created_at: z.string(),
  expires_at: z.string(),
  confirm_url: z.string().describe("The confirm page, where the person confirms it signed in to Weft."),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
}) satisfies z.ZodType<PendingAction>;

export const actionIdField = z.string().trim().min(1).max(128).describe("The action_id returned when a write was prepared.");
