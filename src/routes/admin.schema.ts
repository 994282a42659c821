import { z } from "zod";
import { printableName } from "../validation.ts";

/** `GET /api/admin/workshops`: a page of the deployment's workshops. */
export const ListWorkshopsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50).describe("Workshops per page (1-200)."),
  cursor: z.string().max(400).optional().describe("next_cursor from the previous page."),
});

/** `POST /api/admin/invites`: a one-time invite code. */
export const CreateInviteSchema = z.strictObject({
  note: z
    .string()
    .superRefine(printableName)
    .trim()
    .max(200)
    .default("")
    .describe("Whom it is for, to recognise it in the list, e.g. 'Wang, Jinxiu garments'."),
  days: z.number().int().min(1).max(30).default(7).describe("How many days the code works (1-30)."),
});
