import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth } from "../auth/middleware.ts";
import { AppError, badRequest } from "../errors.ts";
import { validate } from "../routes/validate.ts";
import type { ToolWordsView } from "../shapes.ts";
import { toolContext } from "../tools/context.ts";
import { toolsFor } from "../tools/registry.ts";
import { toolWordsView } from "../tools/tool-words.ts";
import { chatResponse } from "./agent.ts";
import { ChatRequestSchema, UserTextSchema } from "./chat.schema.ts";
import { modelInfo } from "./models.ts";

/** `/api/chat`: the web chat's face, one streamed turn per request, and which model answers. */
export const chatRoutes = new Hono<AppEnv>();

// useChat may send the whole conversation; it is ignored past its last message, but still read.
const MAX_BODY_BYTES = 2 * 1024 * 1024;

// A turn reads the chat so far, whose last reply was saved after its own response.
chatRoutes.use(bearerAuth({ latestReads: true }));

chatRoutes.get("/model", (c) => c.json(modelInfo(c.var.config)));

// What each tool the caller may use is called: the tool cards, the confirm card and page read it
// here rather than keep lists of their own. An external tool brings its own title on its card.
chatRoutes.get("/tools", async (c) => {
  const ctx = toolContext({
    user: c.var.user,
    requestId: c.var.requestId,
    signal: c.req.raw.signal,
    config: c.var.config,
    services: c.var.services,
  });
  const { tools } = await toolsFor(ctx, { external: false });
  const words: ToolWordsView[] = tools.flatMap((tool) => (tool.kind === "weft" ? [toolWordsView(tool)] : []));
  return c.json({ tools: words });
});

chatRoutes.post(
  "/",
  bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new AppError("payload_too_large", "A chat request is limited to 2 MiB; send only the new message.");
    },
  }),
  validate("json", ChatRequestSchema),
  async (c) => {
    const body = c.req.valid("json");
    // Only the newest message is the user's word; anything before it comes from storage.
    const latest = body.message ?? body.messages?.[body.messages.length - 1];
    if (latest?.role !== "user") throw badRequest("The last message must be the user's.");
    const text = UserTextSchema.safeParse(
      latest.parts
        .filter((part) => part.type === "text" && typeof part.text === "string")
        .map((part) => part.text)
        .join("\n"),
    );
    if (!text.success) throw badRequest(`Invalid message: ${text.error.issues[0]?.message ?? "no text"}.`);
    return chatResponse({
      config: c.var.config,
      services: c.var.services,
      directory: c.var.directory,
      waitUntil: (promise) => c.executionCtx.waitUntil(promise),
      user: c.var.user,
      requestId: c.var.requestId,
      chatId: body.id,
      message: { id: latest.id, text: text.data },
      regenerate: body.trigger === "regenerate-message",
      replaces: body.replaces,
      kbIds: body.kbIds,
      model: c.var.services.chatModel,
    });
  },
);
