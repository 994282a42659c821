import { z } from "zod";

const MAX_TEXT = 8000;

/** A UI message as `useChat` sends it; only a user message's text parts are ever used. */
const UIMessageSchema = z.object({
  id: z.string().min(1).max(200),
  role: z.enum(["system", "user", "assistant"]),
  parts: z.array(z.looseObject({ type: z.string().max(100) })).max(200),
  metadata: z.unknown().optional(),
});

/**
 * `POST /api/chat`: the AI SDK `DefaultChatTransport` body (`id` and `messages`, or `id` and just
 * the new `message`, with its `trigger`), the knowledge bases picked with `@`, and for an edited
 * question the one it `replaces`. Whatever history the client sends is ignored: only its last
 * message, which must be the user's, is taken.
 */
export const ChatRequestSchema = z
  .strictObject({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,100}$/, "a chat id is 1-100 letters, digits, '-' or '_'")
      .describe("The chat's id, chosen by the client."),
    messages: z.array(UIMessageSchema).max(1000).optional(),
    message: UIMessageSchema.optional(),
    kbIds: z.array(z.string().min(1).max(100)).max(50).optional(),
    trigger: z
      .enum(["submit-message", "regenerate-message"])
      .optional()
      .describe("`regenerate-message`: make the answer to the last question again, keeping the earlier one."),
    messageId: z.string().max(200).optional(),
    replaces: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe("An edit: the id of the last question, which this new message replaces."),
  })
  .refine((body) => body.message !== undefined || (body.messages?.length ?? 0) > 0, {
    message: "send the new user message as 'message' or as the last of 'messages'",
  });

export type ChatRequest = z.infer<typeof ChatRequestSchema>;

/** The text a user typed, from their message's text parts, bounded. */
export const UserTextSchema = z.string().trim().min(1, "the message has no text").max(MAX_TEXT);
