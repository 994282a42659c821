import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { bearerAuth } from "../auth/middleware.ts";
import { withActionStatuses } from "../chat/confirm-cards.ts";
import { deleteChat, getChat, listChats, loadMessages, renameChat } from "../chat/history.ts";
import { chatAsMarkdown, exportFileName } from "../chat/markdown-export.ts";
import { workshopProfile } from "../chat/workshop.ts";
import { ExportQuerySchema, ListChatsQuerySchema, RenameChatSchema } from "./chats.schema.ts";
import { validate } from "./validate.ts";

/** `/api/chats`: a person's own chat history: list, load, rename, delete, export. */
export const chatHistoryRoutes = new Hono<AppEnv>();

// A reply is saved after its response, so history is read from the primary, not from the client's bookmark.
chatHistoryRoutes.use(bearerAuth({ latestReads: true }));

function ownerOf(c: { var: AppEnv["Variables"] }) {
  return { tenantId: c.var.services.chats.tenantId, userId: c.var.user.userId };
}

chatHistoryRoutes.get("/", validate("query", ListChatsQuerySchema), async (c) => {
  const { limit, cursor, q } = c.req.valid("query");
  return c.json(await listChats({ db: c.var.services.chats.db, owner: ownerOf(c), limit, cursor, q }));
});

// A chat's messages with each confirm card's status as its action holds it now.
async function messagesOf(c: { var: AppEnv["Variables"] }, chatId: string) {
  const messages = await loadMessages({ db: c.var.services.chats.db, chatId });
  return withActionStatuses({ actions: c.var.services.actions, user: c.var.user, messages });
}

chatHistoryRoutes.get("/:id", async (c) => {
  const chat = await getChat({ db: c.var.services.chats.db, owner: ownerOf(c), chatId: c.req.param("id") });
  const messages = await messagesOf(c, chat.id);
  return c.json({ id: chat.id, title: chat.title, created_at: chat.created_at, updated_at: chat.updated_at, messages });
});

chatHistoryRoutes.patch("/:id", validate("json", RenameChatSchema), async (c) => {
  const { title } = c.req.valid("json");
  return c.json(await renameChat({ db: c.var.services.chats.db, owner: ownerOf(c), chatId: c.req.param("id"), title }));
});

chatHistoryRoutes.delete("/:id", async (c) => {
  const id = c.req.param("id");
  await deleteChat({ db: c.var.services.chats.db, owner: ownerOf(c), chatId: id });
  return c.json({ id, deleted: true });
});

chatHistoryRoutes.get("/:id/export", validate("query", ExportQuerySchema), async (c) => {
  const chat = await getChat({ db: c.var.services.chats.db, owner: ownerOf(c), chatId: c.req.param("id") });
  const { lang } = c.req.valid("query");
  const { timeZone } = await workshopProfile({ directory: c.var.directory.db, workshop: c.var.services.chats, user: c.var.user });
  const markdown = chatAsMarkdown(chat, await messagesOf(c, chat.id), { lang, timeZone });
  const name = exportFileName(chat, timeZone);
  // An ASCII name for old clients, and the title itself (RFC 6266) for the rest.
  const ascii = `weft-chat-${name.slice(-13, -3)}.md`;
  return c.body(markdown, 200, {
    "Content-Type": "text/markdown; charset=utf-8",
    "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
  });
});
