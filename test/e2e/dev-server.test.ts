import { spawnSync } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, inject, it } from "vitest";

const baseUrl = inject("baseUrl");

describe("npm run dev", () => {
  it("serves /healthz with local backends", async () => {
    const res = await fetch(`${baseUrl}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, environment: "development", backends: { vector_index: "local" } });
  });

  it("answers an MCP client using a development key from the README", async () => {
    const client = new Client({ name: "weft-e2e", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
        requestInit: { headers: { Authorization: "Bearer dev-boss-key" } },
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("list_knowledge_bases");
    const result = await client.callTool({ name: "list_knowledge_bases", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toHaveProperty("knowledge_bases");
    await client.close();
  });
});

describe("knowledge loaded by npm run dev", () => {
  it("serves the shipped decision trees to a consultation", async () => {
    const client = new Client({ name: "weft-e2e", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
        requestInit: { headers: { Authorization: "Bearer dev-staff-key" } },
      }),
    );
    const result = await client.callTool({ name: "initiate_session", arguments: { user_query: "裤腰的地方老是跳针" } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ current_step: "跳针：出现位置", is_complete: false });
    await client.close();
  });
});

describe("shipped decision trees written by npm run dev", () => {
  it("are seen by a workshop that uploaded none, as shipped trees", async () => {
    const res = await fetch(`${baseUrl}/api/consult/trees`, { headers: { Authorization: "Bearer dev-other-boss-key" } });
    const { trees } = (await res.json()) as { trees: { id: string; scope: string }[] };
    // Only the workshop's: a tree for other trades (the engine's tests keep one) is not shipped.
    expect(trees.map(({ id, scope }) => ({ id, scope }))).toEqual([{ id: "garment-defects", scope: "shipped" }]);
  });
});

describe("business records loaded by npm run dev", () => {
  it("answers 张三这个月做了多少件 for the boss of 锦绣制衣", async () => {
    const client = new Client({ name: "weft-e2e", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
        requestInit: { headers: { Authorization: "Bearer dev-boss-key" } },
      }),
    );
    const result = await client.callTool({ name: "query_piece_records", arguments: { employee: "张三", period: "this_month" } });
    expect(result.isError).toBeFalsy();
    const { totals } = result.structuredContent as { totals: { records: number; pieces: number } };
    expect(totals.records).toBeGreaterThan(0);
    expect(totals.pieces).toBeGreaterThan(0);
    await client.close();
  });
});

describe("the demo seed", () => {
  it("refuses to run when ENVIRONMENT is production", () => {
    const result = spawnSync(process.execPath, ["scripts/seed.ts"], {
      env: { ...process.env, ENVIRONMENT: "production" },
      encoding: "utf8",
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("Refusing to seed demo data");
  });
});

describe("knowledge bases loaded by npm run dev", () => {
  it("holds the workshop's guide and FAQ (not Weft's own manual) and finds them through the WeKnora search API", async () => {
    const listed = await fetch(`${baseUrl}/api/knowledge-bases`, { headers: { Authorization: "Bearer dev-staff-key" } });
    const { knowledge_bases } = (await listed.json()) as { knowledge_bases: { name: string }[] };
    expect(knowledge_bases.map((kb) => kb.name).sort()).toEqual(["车间常见问题", "车间系统使用手册"]);
    const ask = async (question: string) => {
      const res = await fetch(`${baseUrl}/api/v1/knowledge-search`, {
        method: "POST",
        headers: { Authorization: "Bearer dev-staff-key", "Content-Type": "application/json" },
        body: JSON.stringify({ question, top_k: 5, min_score: 0 }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { results: { content: string; knowledge_filename: string }[] }).results;
    };
    // The demo FAQ holds this very question, so its answer comes first; the guide's passage follows.
    const zh = await ask("工资单确认后发现错了怎么办");
    expect(zh[0]?.content).toContain("改正计件记录");
    expect(zh.some((r) => r.knowledge_filename === "05-工资.md" && r.content.includes("改正计件记录"))).toBe(true);
  });
});
