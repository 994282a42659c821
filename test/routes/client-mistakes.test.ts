import { describe, expect, it } from "vitest";
import { keys as devKeys } from "../fixtures.ts";
import { call } from "../helpers.ts";

interface ErrorBody {
  error: { code: string; message: string };
}

async function newKb(name: string): Promise<string> {
  const res = await call("/api/knowledge-bases", { method: "POST", key: devKeys.boss, body: JSON.stringify({ name }) });
  return (await res.json<{ id: string }>()).id;
}

/** Every route that reads a JSON body, with the key allowed to call it. */
let routeSets = 0;
async function jsonRoutes() {
  const kb = await newKb(`坏请求-${routeSets++}`);
  const doc = await call(`/api/knowledge-bases/${kb}/documents`, {
    method: "POST",
    key: devKeys.boss,
    body: JSON.stringify({ filename: "a.md", content: "# 标题\n\n正文。" }),
  });
  const docId = (await doc.json<{ document: { id: string } }>()).document.id;
  return [
    { method: "POST", path: "/api/v1/knowledge-search", key: devKeys.staff },
    { method: "POST", path: "/api/keys", key: devKeys.boss },
    { method: "POST", path: "/api/knowledge-bases", key: devKeys.boss },
    { method: "PATCH", path: `/api/knowledge-bases/${kb}`, key: devKeys.boss },
    { method: "PUT", path: "/api/consult/trees", key: devKeys.admin },
    { method: "POST", path: `/api/knowledge-bases/${kb}/documents`, key: devKeys.boss },
    { method: "PUT", path: `/api/knowledge-bases/${kb}/documents/${docId}`, key: devKeys.boss },
  ];
}

describe("a client's mistakes are 4xx that say what is wrong", () => {
  it("answers invalid JSON on every JSON route with 400 invalid_json", async () => {
    for (const route of await jsonRoutes()) {
      for (const body of ["{bad", "", "   ", '{"question": "x"} trailing', '{"top_k": NaN}', "[1,]"]) {
        const res = await call(route.path, { method: route.method, key: route.key, body });
        const label = `${route.method} ${route.path} ${JSON.stringify(body)}`;
        expect(res.status, label).toBe(400);
        expect((await res.json<ErrorBody>()).error.code, label).toBe("invalid_json");
      }
    }
  });

  it("names a missing or wrong Content-Type instead of complaining about fields", async () => {
    for (const route of await jsonRoutes()) {
      const missing = await call(route.path, {
        method: route.method,
        key: route.key,
        body: new TextEncoder().encode('{"name":"x"}'),
      });
      expect(missing.status, route.path).toBe(415);
      expect((await missing.json<ErrorBody>()).error.message).toMatch(/Content-Type.*no Content-Type was sent/);
      const wrong = await call(route.path, {
        method: route.method,
        key: route.key,
        body: '{"name":"x"}',
        headers: { "Content-Type": "text/plain" },
      });
      expect(wrong.status, route.path).toBe(415);
      expect((await wrong.json<ErrorBody>()).error.message).toContain("got 'text/plain'");
    }
  });

  it("refuses a JSON body above the route's limit with 413", async () => {
    const res = await call("/api/v1/knowledge-search", {
      method: "POST",
      key: devKeys.staff,
      body: JSON.stringify({ question: "x".repeat(1024 * 1024) }),
    });
    expect(res.status).toBe(413);
  });

  it("stops reading a body sent without Content-Length once it passes the limit", async () => {
    for (const route of await jsonRoutes()) {
      // A body that never ends: only a reader that stops at the limit answers at all.
      const chunk = new TextEncoder().encode(`{"name":"${"x".repeat(64 * 1024)}`);
      const endless = new ReadableStream<Uint8Array>({ pull: (controller) => controller.enqueue(chunk) });
      const headers = { "Content-Type": "application/json" };
      const res = await call(route.path, { method: route.method, key: route.key, headers, body: endless });
      expect(res.status, `${route.method} ${route.path}`).toBe(413);
    }
  });

  it("answers a multipart upload with a JSON body, no boundary or a truncated body with 400", async () => {
    const kb = await newKb("坏表单");
    const path = `/api/knowledge-bases/${kb}/documents`;
    const form = new FormData();
    form.append("file", new File(["# 标题\n\n".concat("正文。".repeat(200))], "a.md", { type: "text/markdown" }));
    const real = new Request("http://x", { method: "POST", body: form });
    const bytes = new Uint8Array(await real.arrayBuffer());
    const type = real.headers.get("Content-Type") as string;
    const cases: [string, string, BodyInit][] = [
      ["json body", "multipart/form-data; boundary=abc", '{"filename":"a.md","content":"x"}'],
      ["no boundary", "multipart/form-data", bytes],
      ["truncated", type, bytes.slice(0, Math.floor(bytes.length / 2))],
      ["wrong boundary", "multipart/form-data; boundary=other", bytes],
    ];
    for (const [label, contentType, body] of cases) {
      const res = await call(path, { method: "POST", key: devKeys.boss, body, headers: { "Content-Type": contentType } });
      expect(res.status, label).toBe(400);
      expect((await res.json<ErrorBody>()).error.message, label).toMatch(/multipart|boundary|form field/);
    }
  });

  it("refuses a field the route does not know, naming it, instead of quietly doing something else", async () => {
    const kb = await newKb("多余字段");
    const doc = await call(`/api/knowledge-bases/${kb}/documents`, {
      method: "POST",
      key: devKeys.boss,
      body: JSON.stringify({ filename: "a.md", content: "# 标题\n\n正文。" }),
    });
    const docId = (await doc.json<{ document: { id: string } }>()).document.id;
    const cases = [
      // A staff member asking for an admin key must not be handed a staff key as if that were it.
      { method: "POST", path: "/api/keys", key: devKeys.staff, body: { name: "ci", role: "admin" }, field: "role" },
      { method: "POST", path: "/api/knowledge-bases", key: devKeys.boss, body: { name: "问答库", typ: "faq" }, field: "typ" },
      {
        method: "PATCH",
        path: `/api/knowledge-bases/${kb}`,
        key: devKeys.boss,
        body: { name: "新名", descripton: "x" },
        field: "descripton",
      },
      {
        method: "POST",
        path: `/api/knowledge-bases/${kb}/documents`,
        key: devKeys.boss,
        body: { filename: "b.md", content: "正文", titel: "x" },
        field: "titel",
      },
      {
        method: "PUT",
        path: `/api/knowledge-bases/${kb}/documents/${docId}`,
        key: devKeys.boss,
        body: { content: "正文", file: "x" },
        field: "file",
      },
      {
        method: "PUT",
        path: "/api/consult/trees",
        key: devKeys.admin,
        body: { file_name: "t.json", content: "{}", scope: "shipped" },
        field: "scope",
      },
    ];
    for (const { method, path, key, body, field } of cases) {
      const res = await call(path, { method, key, body: JSON.stringify(body) });
      const label = `${method} ${path} ${JSON.stringify(body)}`;
      expect(res.status, label).toBe(400);
      expect((await res.json<ErrorBody>()).error.message, label).toContain(field);
    }
    const keys = await call("/api/keys", { key: devKeys.staff });
    expect((await keys.json<{ keys: { name: string }[] }>()).keys.map((k) => k.name)).not.toContain("ci");
    const kbs = await call("/api/knowledge-bases", { key: devKeys.boss });
    expect((await kbs.json<{ knowledge_bases: { name: string }[] }>()).knowledge_bases.map((k) => k.name)).not.toContain(
      "问答库",
    );
  });

  it("states the limit when a batch has more than 100 documents", async () => {
    const kb = await newKb("太多文档");
    const documents = Array.from({ length: 101 }, (_, i) => ({ filename: `${i}.md`, content: `# 第${i}篇\n\n正文。` }));
    const res = await call(`/api/knowledge-bases/${kb}/documents`, {
      method: "POST",
      key: devKeys.boss,
      body: JSON.stringify({ documents }),
    });
    expect(res.status).toBe(400);
    expect((await res.json<ErrorBody>()).error.message).toContain("at most 100 documents per request");
  });

  it("gives each document of a batch its own status and still indexes the good ones", async () => {
    const kb = await newKb("逐个状态");
    const res = await call(`/api/knowledge-bases/${kb}/documents`, {
      method: "POST",
      key: devKeys.boss,
      body: JSON.stringify({
        documents: [
          { filename: "good.md", content: "# 好的\n\n这是一篇好文档。" },
          { content: "没有文件名" },
          "not an object",
          { filename: "scan.pdf", content: "%PDF" },
          { filename: "binary.txt", content: "\u0000\u0001" },
          { filename: "entity.html", content: "<p>码点太大 &#x110000; 仍然可读</p>" },
          { filename: "good2.md", content: "# 也好\n\n另一篇好文档。" },
        ],
      }),
    });
    expect(res.status).toBe(200);
    const { results } = await res.json<{
      results: { index: number; filename: string | null; status: string; error?: { code: string } }[];
    }>();
    expect(results.map((r) => [r.index, r.filename, r.status, r.error?.code])).toEqual([
      [0, "good.md", "created", undefined],
      [1, null, "failed", "invalid_input"],
      [2, null, "failed", "invalid_input"],
      [3, "scan.pdf", "failed", "unsupported_media_type"],
      [4, "binary.txt", "failed", "unparseable_document"],
      [5, "entity.html", "created", undefined],
      [6, "good2.md", "created", undefined],
    ]);
    const { documents } = await (await call(`/api/knowledge-bases/${kb}/documents`, { key: devKeys.boss })).json<{
      documents: { filename: string; status: string }[];
    }>();
    expect(documents.filter((d) => d.status === "ready").map((d) => d.filename)).toEqual(["entity.html", "good.md", "good2.md"]);
  });

  it("decodes an HTML character reference beyond U+10FFFF as U+FFFD", async () => {
    const kb = await newKb("字符引用");
    const res = await call(`/api/knowledge-bases/${kb}/documents`, {
      method: "POST",
      key: devKeys.boss,
      body: JSON.stringify({ filename: "e.html", content: "<p>甲 &#x110000; 乙 &#99999999999; 丙 &#xD800; 丁 &#0;</p>" }),
    });
    expect(res.status).toBe(201);
    const search = await call("/api/v1/knowledge-search", {
      method: "POST",
      key: devKeys.staff,
      body: JSON.stringify({ question: "甲乙丙丁", knowledge_base_ids: [kb], search_mode: "keyword", min_score: 0 }),
    });
    const { results } = await search.json<{ results: { content: string }[] }>();
    expect(results[0]?.content).toBe("甲 \ufffd 乙 \ufffd 丙 \ufffd 丁 \ufffd");
  });
});
