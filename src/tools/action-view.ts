import { z } from "zod";
import { ACTION_STATUSES } from "../business/action-types.ts";

/** A pending action as confirm_action and cancel_action return it. */
export const ActionViewSchema = z.object({
  action_id: z.string(),
  kind: z.enum(["piece_record", "order", "external_call"]),
  status: z.enum(ACTION_STATUSES),
  summary: z.string(),
  preview: z.array(z.object({ label: z.string(), value: z.string() })),
  ambiguities: z.array(
    z.object({ field: z.string(), message: z.string(), candidates: z.array(z.object({ id: z.string(), label: z.string() })) }),
  ),
  created_at: z.string(),
  expires_at: z.string(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});

export const actionIdField = z
  .string()
  .trim()
  .min(1)
  .max(128)
  .describe("The action_id returned by prepare_piece_record or prepare_order.");
