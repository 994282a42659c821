import { env } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { BOOKMARK_HEADER, bookmarkOf, sendBookmark } from "../src/auth/bookmark.ts";
import { configFor } from "../src/config.ts";
import { createKnowledgeBase, listKnowledgeBases } from "../src/search/knowledge-bases.ts";
import { servicesFor } from "../src/services.ts";
import { workshopOf } from "./fixtures.ts";

describe("reads from D1 read replicas", () => {
  it("go through a session whose bookmark the client carries to its next request, and see its own writes", async () => {
    const config = { ...configFor(env), readReplication: true };
    const first = servicesFor(env, config, workshopOf("t-jinxiu"));
    expect(first.bookmark()).toBeNull();
    const kb = await createKnowledgeBase({ ...first.search, name: "会话里的知识库" });
    const bookmark = first.bookmark();
    expect(bookmark).toMatch(/^[0-9a-f]+(-[0-9a-f]+)+$/);
    const next = servicesFor(env, config, workshopOf("t-jinxiu"), { bookmark: bookmark as string });
    expect((await listKnowledgeBases(next.search)).map((k) => k.id)).toContain(kb.id);
    // Off (the default, and always locally): no session and no bookmark.
    expect(servicesFor(env, configFor(env), workshopOf("t-jinxiu")).bookmark()).toBeNull();
  });

  it("take a bookmark only in its own shape, and only of the workshop's own database", async () => {
    const jinxiu = { id: "t-jinxiu", shard: "SHARD_1" };
    const app = new Hono();
    app.get("/", (c) => c.json({ bookmark: bookmarkOf(c, jinxiu) ?? null }));
    const read = async (headers: Record<string, string>) =>
      (await (await app.request("/", { headers })).json<{ bookmark: string | null }>()).bookmark;
    const good = "0000002a-00000003-00004fd1-9b3c6a7e2f";
    expect(await read({ [BOOKMARK_HEADER]: `SHARD_1~${good}` })).toBe(good);
    expect(await read({ [BOOKMARK_HEADER]: good })).toBeNull();
    expect(await read({ [BOOKMARK_HEADER]: "SHARD_1~'; DROP TABLE chats; --" })).toBeNull();
    // A bookmark of the shard the workshop was moved from is not sent to the one it is on now.
    expect(await read({ [BOOKMARK_HEADER]: `SHARD_2~${good}` })).toBeNull();
    expect(await read({ Cookie: `weft_bookmark=t-jinxiu~SHARD_1~${good}` })).toBe(good);
    expect(await read({ Cookie: `weft_bookmark=t-other~SHARD_1~${good}` })).toBeNull();
    expect(await read({ Cookie: `weft_bookmark=t-jinxiu~SHARD_2~${good}` })).toBeNull();
    const sender = new Hono();
    sender.get("/", (c) => {
      sendBookmark(c, jinxiu, good);
      return c.text("ok");
    });
    const res = await sender.request("/", { headers: { Cookie: "weft_session=x" } });
    expect(res.headers.get(BOOKMARK_HEADER)).toBe(`SHARD_1~${good}`);
    expect(res.headers.get("Set-Cookie")).toContain(`weft_bookmark=t-jinxiu~SHARD_1~${good}`);
  });
});
