import { z } from "zod";

/**
 * `POST /api/actions/:id/confirm` from a signed-in browser: where the person said yes (the chat's
 * card unless said; the confirm page, or the confirm page a URL elicitation opened; a settings
 * form, Settings → 车间资料) and the language the page showed the preview in, so the audit keeps
 * the words they saw.
 */
export const ConfirmActionSchema = z.strictObject({
  via: z
    .enum(["card", "confirm_page", "url_elicitation", "settings"])
    .default("card")
    .describe(
      "Where the person said yes: the chat's card, the confirm page, the confirm page an MCP URL elicitation opened, or a settings form.",
    ),
  lang: z.enum(["zh", "en"]).default("zh").describe("The language the preview was shown in."),
});
