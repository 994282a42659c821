import { z } from "zod";

export const DeleteWorkshopSchema = z.object({
  confirm: z.string().min(1).max(128).describe("The workshop's own id, repeated, so a workshop is never deleted by accident."),
});
