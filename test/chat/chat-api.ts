import type { UIMessage } from "ai";
import { browserCall } from "./sign-in.ts";

/** The body `DefaultChatTransport` sends for a new user message, as the UI sends it. */
export function chatBody(chatId: string, text: string, extra: Record<string, unknown> = {}): string {
  const message = { id: crypto.randomUUID(), role: "user", parts: [{ type: "text", text }] };
  return JSON.stringify({ id: chatId, messages: [message], trigger: "submit-message", messageId: undefined, ...extra });
}

/** Sends a message as a signed-in browser. */
export function sendChat(cookie: string, chatId: string, text: string, extra: Record<string, unknown> = {}): Promise<Response> {
  return browserCall("/api/chat", cookie, { method: "POST", body: chatBody(chatId, text, extra) });
}

/**
 * The stored chat once it holds `count` messages: the reply is saved when the stream ends, under
 * `waitUntil`, so a reload right after the last byte may come a moment early.
 */
export async function storedChat(
  cookie: string,
  chatId: string,
  count: number,
): Promise<{ title: string; messages: UIMessage[] }> {
  for (let i = 0; i < 50; i++) {
    const res = await browserCall(`/api/chats/${chatId}`, cookie);
    if (res.status === 200) {
      const chat = await res.json<{ title: string; messages: UIMessage[] }>();
      if (chat.messages.length >= count) return chat;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`chat ${chatId} never reached ${count} messages`);
}
