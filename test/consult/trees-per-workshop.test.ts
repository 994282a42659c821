import { env } from "cloudflare:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/consult/tree-store.ts";
import { keys as devKeys } from "../fixtures.ts";
import { call, mcpClient } from "../helpers.ts";

interface TreeList {
  trees: { id: string; title: string; scope: string }[];
}

const put = (key: string, file_name: string, content: string) =>
  call("/api/consult/trees", { method: "PUT", key, body: JSON.stringify({ file_name, content }) });

const tree = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({ id: "demo", title: "Demo", root: "a", nodes: { a: { response: "A", options: [] } }, ...fields });

async function initiate(client: Client, query: string) {
  const result = await client.callTool({ name: "initiate_session", arguments: { user_query: query } });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as { current_step: string; options: { id: string }[] };
}

const list = async (key: string) => (await (await call("/api/consult/trees", { key })).json<TreeList>()).trees;

describe("reserved names in trees", () => {
  const cases: [string, string, string][] = [
    ["a tree id __proto__", "p.json", tree({ id: "__proto__" })],
    ["root constructor", "c.json", tree({ root: "constructor", nodes: { constructor: { response: "A" } } })],
    [
      "a node named __proto__",
      "n.json",
      '{"id":"n","title":"N","root":"a","nodes":{"a":{"response":"A","options":[{"id":"x","description":"X","next_node":"__proto__"}]},"__proto__":{"response":"P"}}}',
    ],
    [
      "an option id toString",
      "o.json",
      tree({ nodes: { a: { response: "A", options: [{ id: "toString", description: "X", next_node: null }] } } }),
    ],
    ["a YAML node named __proto__", "y.yaml", "id: y\ntitle: Y\nroot: __proto__\nnodes:\n  __proto__:\n    response: P\n"],
  ];

  for (const [name, file, content] of cases) {
    it(`refuses ${name} with 422 reserved_name saying why`, async () => {
      const res = await put(devKeys.admin, file, content);
      expect(res.status).toBe(422);
      const body = await res.json<{ error: { code: string; message: string } }>();
      expect(body.error.code).toBe("reserved_name");
      expect(body.error.message).toMatch(/reserved names .*(__proto__|constructor|toString)/);
      expect(body.error.message).toContain("built into JavaScript objects");
    });
  }

  it("leaves every workshop's consultations working after such attempts", async () => {
    for (const [, file, content] of cases) await put(devKeys.admin, file, content);
    for (const key of [devKeys.staff, devKeys.otherBoss]) {
      const state = await initiate(await mcpClient(key), "质量问题");
      expect(state.current_step).toBe("问题类型");
    }
  });

  it("skips a stored tree with a reserved id (from before names were checked) instead of failing every consultation", async () => {
    const stored = JSON.stringify({
      id: "__proto__",
      title: "P",
      root: "a",
      language: "en",
      version: "x",
      triggers: [],
      nodes: { a: { response: "A", options: [], triggers: [] } },
    });
    await env.DB.prepare(
      "INSERT INTO consult_trees (tenant_id, id, title, version, file_name, tree_json) VALUES (NULL, '__proto__', 'P', 'x', 'p.json', ?1)",
    )
      .bind(stored)
      .run();
    const catalog = await loadCatalog({ db: env.DB, tenantId: "t-other" });
    expect(catalog.order).not.toContain("__proto__");
    const state = await initiate(await mcpClient(devKeys.otherBoss), "你好");
    expect(state.current_step).toBe("问题类型");
  });
});

describe("decision trees per workshop", () => {
  it("shows a workshop's own tree to that workshop only", async () => {
    expect((await put(devKeys.admin, "jinxiu.json", tree({ id: "jinxiu-only", title: "锦绣专用" }))).status).toBe(200);
    expect((await list(devKeys.staff)).find((t) => t.id === "jinxiu-only")).toMatchObject({ scope: "workshop" });
    expect((await list(devKeys.otherBoss)).map((t) => t.id)).toEqual(["garment-defects"]);
    const state = await initiate(await mcpClient(devKeys.otherBoss), "锦绣专用");
    expect(state.options.map((o) => o.id)).not.toContain("jinxiu-only");
  });

  it("lets a workshop's tree override a shipped one for that workshop only, until deleted", async () => {
    const override = tree({ id: "garment-defects", title: "锦绣的质量问题", triggers: ["质量问题"] });
    expect((await put(devKeys.admin, "garment-defects.json", override)).status).toBe(200);
    const own = (await list(devKeys.staff)).filter((t) => t.id === "garment-defects");
    expect(own).toEqual([expect.objectContaining({ title: "锦绣的质量问题", scope: "workshop" })]);
    expect((await list(devKeys.otherBoss)).find((t) => t.id === "garment-defects")).toMatchObject({ scope: "shipped" });
    expect((await initiate(await mcpClient(devKeys.staff), "质量问题")).current_step).toBe("a");
    expect((await initiate(await mcpClient(devKeys.otherBoss), "质量问题")).current_step).toBe("问题类型");

    expect((await call("/api/consult/trees/garment-defects", { method: "DELETE", key: devKeys.admin })).status).toBe(200);
    expect((await list(devKeys.staff)).find((t) => t.id === "garment-defects")).toMatchObject({ scope: "shipped" });
  });

  it("does not let an admin delete a shipped tree or another workshop's tree", async () => {
    const shipped = await call("/api/consult/trees/garment-defects", { method: "DELETE", key: devKeys.admin });
    expect(shipped.status).toBe(403);
    expect((await shipped.json<{ error: { message: string } }>()).error.message).toContain("shipped");
    expect((await list(devKeys.staff)).map((t) => t.id)).toContain("garment-defects");

    await put(devKeys.admin, "mine.json", tree({ id: "mine" }));
    await env.DB.prepare("INSERT INTO users (id, tenant_id, name, role) VALUES ('u-other-admin', 't-other', 'x', 'admin')").run();
    const adminKey = await (
      await call("/api/keys", { method: "POST", key: devKeys.admin, body: JSON.stringify({ name: "x" }) })
    ).json<{ key: string }>();
    expect(adminKey.key).toBeTruthy();
    const otherAdmin = `wft_${crypto.randomUUID()}`;
    await env.DB.prepare(
      "INSERT INTO api_keys (id, tenant_id, user_id, name, prefix, key_hash) VALUES ('k-oa', 't-other', 'u-other-admin', 'x', 'wft_', ?1)",
    )
      .bind(await sha256(otherAdmin))
      .run();
    expect((await call("/api/consult/trees/mine", { method: "DELETE", key: otherAdmin })).status).toBe(404);
    expect((await list(devKeys.staff)).map((t) => t.id)).toContain("mine");
  });
});

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
