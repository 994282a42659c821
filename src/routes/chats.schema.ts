import { z } from "zod";
import { printableName } from "../validation.ts";

/** `GET /api/chats`: a page of the caller's chats, optionally filtered by words of the title. */
export const ListChatsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(500).optional(),
  q: z.string().trim().max(200).optional(),
});

/** `PATCH /api/chats/:id`. */
export const RenameChatSchema = z.strictObject({
  title: z.string().superRefine(printableName).trim().min(1).max(200),
});

/** `GET /api/chats/:id/export`: the language of its headings and words (the UI's). */
export const ExportQuerySchema = z.object({
  lang: z.enum(["zh", "en"]).default("zh"),
});
