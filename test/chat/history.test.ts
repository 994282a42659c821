import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createWebSession } from "../../src/auth/web-sessions.ts";
import { saveUserMessage } from "../../src/chat/history.ts";
import { localTime } from "../../src/chat/markdown-export.ts";
import { chatTitle } from "../../src/chat/title.ts";
import { dbOf, deleteWorkshop } from "../fixtures.ts";
import { sendChat, storedChat } from "./chat-api.ts";
import { browserCall, signIn } from "./sign-in.ts";
import { readChunks, textOf } from "./stream.ts";

async function chatWith(cookie: string, chatId: string, text: string) {
  await readChunks(await sendChat(cookie, chatId, text));
  return storedChat(cookie, chatId, 2);
}

describe("chat history", () => {
  it("saves a turn and reloads it with its tool call, input and output", async () => {
    const cookie = await signIn("boss", "boss123");
    const chat = await chatWith(cookie, "h-consult", "衣服起皱怎么办");
    expect(chat.title).toBe("衣服起皱怎么办");
    expect(chat.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(textOf(chat.messages[0] as never)).toBe("衣服起皱怎么办");
    const tool = chat.messages[1]?.parts.find((p) => p.type === "tool-initiate_session") as Record<string, unknown>;
    expect(tool).toMatchObject({ state: "output-available", input: { user_query: "衣服起皱怎么办" } });
    expect(tool.output).toHaveProperty("session_id");
    expect(textOf(chat.messages[1] as never).length).toBeGreaterThan(0);
  });

  it("titles a chat from a 50-character Chinese first message by characters, never bytes", async () => {
    const cookie = await signIn("boss", "boss123");
    const text = "请帮我查一下锦绣制衣这个月所有生产中的订单还有每个订单的交期和数量以及负责的组长是谁谢谢老板辛苦了啊";
    expect([...text]).toHaveLength(50);
    const chat = await chatWith(cookie, "h-long", text);
    expect(chat.title).toBe(`${[...text].slice(0, 30).join("")}…`);
    expect(textOf(chat.messages[0] as never)).toBe(text);
  });

  it("titles an emoji message without splitting a family, a flag or a skin tone", async () => {
    const cookie = await signIn("boss", "boss123");
    const text = `${"👨‍👩‍👧‍👦🇨🇳👍🏽".repeat(12)}好`;
    const chat = await chatWith(cookie, "h-emoji", text);
    const graphemes = [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(chat.title)].map((s) => s.segment);
    expect(graphemes).toHaveLength(31);
    expect(graphemes.slice(0, 3)).toEqual(["👨‍👩‍👧‍👦", "🇨🇳", "👍🏽"]);
    expect(graphemes.at(-1)).toBe("…");
    expect(chatTitle("  短  标题 ")).toBe("短 标题");
  });

  it("renames, lists newest first in pages, filters by title words, and deletes with the messages", async () => {
    const cookie = await signIn("staff2", "staff123");
    for (const [id, text] of [
      ["p-1", "订单 问题 一"],
      ["p-2", "工资 问题"],
      ["p-3", "订单 交期"],
      ["p-4", "你好"],
      ["p-5", "订单 问题 二"],
    ] as const) {
      await chatWith(cookie, id, text);
    }
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await browserCall(`/api/chats?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, cookie);
      const page = await res.json<{ chats: { id: string }[]; next_cursor: string | null }>();
      expect(page.chats.length).toBeLessThanOrEqual(2);
      ids.push(...page.chats.map((c) => c.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(ids).toEqual(["p-5", "p-4", "p-3", "p-2", "p-1"]);

    const filtered = await (await browserCall(`/api/chats?q=${encodeURIComponent("订单 问题")}`, cookie)).json<{
      chats: { id: string }[];
    }>();
    expect(filtered.chats.map((c) => c.id)).toEqual(["p-5", "p-1"]);
    const wildcard = await (await browserCall(`/api/chats?q=${encodeURIComponent("%")}`, cookie)).json<{ chats: unknown[] }>();
    expect(wildcard.chats).toEqual([]);

    const renamed = await browserCall("/api/chats/p-2", cookie, {
      method: "PATCH",
      body: JSON.stringify({ title: "三月工资 🧾" }),
    });
    expect(await renamed.json()).toMatchObject({ id: "p-2", title: "三月工资 🧾" });
    const listed = await (await browserCall("/api/chats?limit=1", cookie)).json<{ chats: { id: string; title: string }[] }>();
    expect(listed.chats[0]).toMatchObject({ id: "p-2", title: "三月工资 🧾" });
    expect((await browserCall("/api/chats/p-2", cookie, { method: "PATCH", body: JSON.stringify({ title: " " }) })).status).toBe(
      400,
    );

    const deleted = await browserCall("/api/chats/p-3", cookie, { method: "DELETE" });
    expect(await deleted.json()).toEqual({ id: "p-3", deleted: true });
    expect((await browserCall("/api/chats/p-3", cookie)).status).toBe(404);
    const left = await dbOf("t-jinxiu")
      .prepare("SELECT COUNT(*) AS n FROM chat_messages WHERE chat_id = 'p-3'")
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
    expect((await browserCall("/api/chats/p-3", cookie, { method: "DELETE" })).status).toBe(404);
    expect((await browserCall("/api/chats?cursor=not-ours", cookie)).status).toBe(400);
    expect((await browserCall("/api/chats?limit=0", cookie)).status).toBe(400);
  });

  it("shows each person only their own chats, even in the same workshop", async () => {
    const boss = await signIn("boss", "boss123");
    await chatWith(boss, "h-boss-only", "老板的问题");
    const staff = await signIn("staff", "staff123");
    const list = await (await browserCall("/api/chats", staff)).json<{ chats: { id: string }[] }>();
    expect(list.chats.map((c) => c.id)).not.toContain("h-boss-only");
    expect(
      (await browserCall("/api/chats/h-boss-only", staff, { method: "PATCH", body: JSON.stringify({ title: "x" }) })).status,
    ).toBe(404);
    expect((await browserCall("/api/chats/h-boss-only", staff, { method: "DELETE" })).status).toBe(404);
    expect((await browserCall("/api/chats/h-boss-only/export", staff)).status).toBe(404);
    expect((await browserCall("/api/chats/h-boss-only", boss)).status).toBe(200);
  });

  it("exports a chat a person can read and forward: headings in the UI's language, local time, no ids or JSON", async () => {
    const cookie = await signIn("boss", "boss123");
    await chatWith(cookie, "h-export", "衣服起皱怎么办");
    const res = await browserCall("/api/chats/h-export/export", cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/markdown; charset=utf-8");
    const { updated_at } = await (await browserCall("/api/chats/h-export", cookie)).json<{ updated_at: string }>();
    const day = localTime(updated_at, "Asia/Shanghai").slice(0, 10);
    expect(res.headers.get("Content-Disposition")).toBe(
      `attachment; filename="weft-chat-${day}.md"; filename*=UTF-8''${encodeURIComponent(`衣服起皱怎么办 ${day}.md`)}`,
    );
    const markdown = await res.text();
    expect(markdown).toMatch(
      /^# 衣服起皱怎么办\n\n_创建于 \d{4}-\d{2}-\d{2} \d{2}:\d{2}，最后更新 \d{4}-\d{2}-\d{2} \d{2}:\d{2}_\n/,
    );
    expect(markdown).toContain(`最后更新 ${localTime(updated_at, "Asia/Shanghai")}`);
    expect(markdown).toContain("## 我\n\n衣服起皱怎么办");
    expect(markdown).toContain("## Weft 助手");
    expect(markdown).toMatch(/\*\*[^*]+\*\*：.+\n- /);
    expect(markdown).not.toMatch(/[{}]|"user_query"|session_id|<details>|Z_/);
    const english = await (await browserCall("/api/chats/h-export/export?lang=en", cookie)).text();
    expect(english).toContain("## Me\n\n衣服起皱怎么办");
    expect((await browserCall("/api/chats/h-export/export?lang=fr", cookie)).status).toBe(400);
  });

  it("goes with its workshop: deleting a workshop deletes its people's sessions, chats and messages", async () => {
    await env.DB.batch([
      env.DB.prepare("INSERT INTO tenants (id, name) VALUES ('t-gone', '关门车间')"),
      env.DB.prepare("INSERT INTO users (id, tenant_id, name, role) VALUES ('u-gone', 't-gone', '某人', 'boss')"),
    ]);
    const owner = { tenantId: "t-gone", userId: "u-gone" };
    await saveUserMessage({
      db: env.DB,
      owner,
      chatId: "h-gone",
      title: "再见",
      message: { id: "m1", role: "user", parts: [{ type: "text", text: "再见" }] },
    });
    await createWebSession({
      db: env.DB,
      user: { id: "u-gone", name: "某人", role: "boss", tenant_id: "t-gone", tenant_name: "关门车间" },
    });
    await deleteWorkshop("t-gone");
    const count = async (sql: string) => (await env.DB.prepare(sql).first<{ n: number }>())?.n;
    expect(await count("SELECT COUNT(*) AS n FROM chats WHERE tenant_id = 't-gone'")).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM chat_messages WHERE chat_id = 'h-gone'")).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM web_sessions WHERE tenant_id = 't-gone'")).toBe(0);
  });
});

describe("confirm cards stored before the one wire shape", () => {
  it("reads a card stored in the earlier camelCase shape as today's, with its outcome line", async () => {
    const cookie = await signIn("boss", "boss123");
    const owner = { tenantId: "t-jinxiu", userId: "u-boss" };
    await saveUserMessage({
      db: dbOf("t-jinxiu"),
      owner,
      chatId: "h-old-card",
      title: "记件",
      message: { id: "q1", role: "user", parts: [{ type: "text", text: "给张三记 5 件" }] },
    });
    const earlier = {
      type: "data-confirm-card",
      id: "act-old",
      data: {
        actionId: "act-old",
        summary: "计件登记：张三 上领子 5 件",
        preview: [{ label: "数量", value: "5 件" }],
        ambiguities: [],
        expiresAt: "2026-01-01T00:10:00.000Z",
        status: "confirmed",
        result: "已登记",
      },
    };
    await dbOf("t-jinxiu")
      .prepare("INSERT INTO chat_messages (chat_id, id, seq, role, parts) VALUES ('h-old-card', 'r1', 2, 'assistant', ?1)")
      .bind(JSON.stringify([earlier]))
      .run();
    const chat = await storedChat(cookie, "h-old-card", 2);
    expect(chat.messages[1]?.parts[0]).toEqual({
      type: "data-confirm-card",
      id: "act-old",
      data: {
        action_id: "act-old",
        kind: "",
        status: "confirmed",
        summary: "计件登记：张三 上领子 5 件",
        preview: [{ label: "数量", value: "5 件" }],
        ambiguities: [],
        created_at: "",
        expires_at: "2026-01-01T00:10:00.000Z",
        confirm_url: "/actions/act-old",
        outcome: "已登记",
      },
    });
  });
});
