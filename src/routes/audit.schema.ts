import { z } from "zod";

export const AuditQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe("Entries per page (1-100)."),
  cursor: z.string().max(400).optional().describe("next_cursor from the previous page."),
});
export type AuditQuery = z.infer<typeof AuditQuerySchema>;
