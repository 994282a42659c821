import { describe, expect, it } from "vitest";
import { chatTitle } from "../../src/chat/title.ts";
import { firstUnprintable, printable } from "../../src/printable.ts";
import { parseDocument } from "../../src/search/parse.ts";
import { sendChat } from "../chat/chat-api.ts";
import { signIn } from "../chat/sign-in.ts";
import { keys } from "../fixtures.ts";
import { callJson } from "../helpers.ts";

const boss = keys.boss;
const send = (method: string, path: string, body: unknown, key = boss) =>
  callJson(path, { method, key, body: JSON.stringify(body) });

/** One of each kind a name may not hold, with the code point the error names. */
const REFUSED: [string, string][] = [
  ["\u0000", "U+0000"],
  ["\u0007", "U+0007"],
  ["\t", "U+0009"],
  ["\n", "U+000A"],
  ["\u001b", "U+001B"],
  ["\u007f", "U+007F"],
  ["\u0085", "U+0085"],
  ["\u009b", "U+009B"],
  ["\u202e", "U+202E"],
  ["\u2066", "U+2066"],
  ["\u2069", "U+2069"],
];

function expectRefused(res: Awaited<ReturnType<typeof callJson>>, field: string, position: number, codePoint: string) {
  expect(res.status, res.text).toBe(422);
  expect(res.body.error.code).toBe("unprintable_name");
  expect(res.body.error.message).toContain(`${field}: character ${position} is ${codePoint}`);
}

describe("names Weft prints or shows", () => {
  it("refuses a knowledge-base name holding a control or bidi character, with 422 naming its position", async () => {
    for (const [char, codePoint] of REFUSED) {
      expectRefused(await send("POST", "/api/knowledge-bases", { name: `车间${char}手册` }), "name", 3, codePoint);
    }
    // The example in docs/security.md, word for word.
    expect((await send("POST", "/api/knowledge-bases", { name: "车间\u001b手册" })).body.error.message).toBe(
      "Invalid request body: name: character 3 is U+001B, a control or bidirectional formatting character, which names may not contain",
    );
    // Counted in characters as sent, leading spaces and characters beyond the BMP included.
    expectRefused(await send("POST", "/api/knowledge-bases", { name: " 🧵a\u001b[2J" }), "name", 4, "U+001B");
    const created = await send("POST", "/api/knowledge-bases", { name: "  锦绣 Manual (v2) — 工艺/质检  " });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe("锦绣 Manual (v2) — 工艺/质检");
    expectRefused(await send("PATCH", `/api/knowledge-bases/${created.body.id}`, { name: "a\u202eb" }), "name", 2, "U+202E");
  });

  it("refuses such characters in document file names and titles, servers, synonyms, key names and chat titles", async () => {
    const kb = await send("POST", "/api/knowledge-bases", { name: "names" });
    const doc = (body: Record<string, unknown>) => send("POST", `/api/knowledge-bases/${kb.body.id}/documents`, body);
    expectRefused(await doc({ filename: "a\u001b.md", content: "# 标题\n\n正文" }), "filename", 2, "U+001B");
    expectRefused(await doc({ filename: "a.md", title: "\u2066x", content: "正文" }), "title", 1, "U+2066");
    const batch = await send("POST", `/api/knowledge-bases/${kb.body.id}/documents`, {
      documents: [
        { filename: "ok.md", content: "正文" },
        { filename: "b\u0000.md", content: "正文" },
      ],
    });
    expect(batch.body.results.map((r: { status: string }) => r.status)).toEqual(["created", "failed"]);
    expect(batch.body.results[1].error).toMatchObject({ code: "unprintable_name" });

    expectRefused(
      await send("POST", "/api/mcp/servers", { name: "a\u001bb", url: "https://tools.example.com/mcp" }),
      "name",
      2,
      "U+001B",
    );
    expectRefused(await send("PUT", "/api/synonyms", { groups: [["计件", "件\u009b数"]] }), "groups.0.1", 2, "U+009B");
    expectRefused(await send("POST", "/api/keys", { name: "laptop\u0007" }, keys.staff), "name", 7, "U+0007");

    const cookie = await signIn("boss", "boss123");
    await (await sendChat(cookie, "named-chat", "你好")).text();
    expectRefused(await send("PATCH", "/api/chats/named-chat", { title: "x\u202ey" }), "title", 2, "U+202E");
  });

  it("refuses them in a tree's title (422 invalid_tree naming the place)", async () => {
    const tree = {
      id: "named-tree",
      title: "次品\u001b处理",
      root: "start",
      nodes: { start: { response: "好的" } },
    };
    const res = await send("PUT", "/api/consult/trees", { file_name: "named.json", content: JSON.stringify(tree) }, keys.admin);
    expect(res.status).toBe(422);
    expect(res.body.error.message).toContain("title: character 3 is U+001B");
  });

  it("makes the names it derives itself safe: a chat's title from its message, a document's from its heading", () => {
    expect(chatTitle("工资\u001b[2J\u202e怎么算")).toBe("工资 [2J 怎么算");
    expect(parseDocument("guide.md", "# 手册\u001b[31m红\n\n正文", "markdown").title).toBe("手册 [31m红");
    expect(parseDocument("guide.md", "# \u0007\n\n正文", "markdown").title).toBe("guide");
  });

  it("prints any stored name safely, for a terminal or a log", () => {
    expect(printable("a\u001b[2Jb\u202ec")).toBe("a<U+001B>[2Jb<U+202E>c");
    expect(printable("锦绣 手册")).toBe("锦绣 手册");
    expect(firstUnprintable("ok")).toBeUndefined();
  });
});
