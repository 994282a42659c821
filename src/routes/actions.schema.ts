import { z } from "zod";

/** `POST /api/actions/:id/confirm`: which page the person confirmed on (the chat's card unless said). */
export const ConfirmActionSchema = z.strictObject({
  via: z
    .enum(["card", "confirm_page"])
    .default("card")
    .describe("Where the person said yes: the chat's card or the confirm page."),
});
