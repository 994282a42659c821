import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { keys } from "../fixtures.ts";
import { call, mcpClient } from "../helpers.ts";

describe("/mcp through the SDK client", () => {
  it("initializes and names the server", async () => {
    const client = await mcpClient(keys.staff);
    expect(client.getServerVersion()).toMatchObject({ name: "weft" });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    await client.close();
  });

  it("lists tools with input and output schemas and annotations", async () => {
    const client = await mcpClient(keys.staff);
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === "list_knowledge_bases")!;
    expect(tool.inputSchema.type).toBe("object");
    expect(tool.inputSchema.properties).toHaveProperty("name_contains");
    expect(tool.outputSchema?.properties).toHaveProperty("knowledge_bases");
    expect(tool.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
  });

  it("serves each icon tools/list names at its address, without a key, and nothing else there", async () => {
    const client = await mcpClient(keys.boss);
    const { tools } = await client.listTools();
    const addresses = new Set(tools.flatMap((t) => (t.icons ?? []).map((icon) => icon.src)));
    expect(addresses.size).toBeGreaterThan(3);
    for (const address of addresses) {
      const res = await call(new URL(address).pathname);
      expect(res.status, address).toBe(200);
      expect(res.headers.get("Content-Type")).toBe("image/svg+xml");
      expect(await res.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    }
    for (const path of ["/icons/nope.svg", "/icons/records.png", "/icons/..%2Fapp.svg"]) {
      expect((await call(path)).status, path).toBe(404);
    }
    await client.close();
  });

  it("calls a tool and returns structured content and text, scoped to the caller's workshop", async () => {
    await call("/api/knowledge-bases", { method: "POST", key: keys.boss, body: JSON.stringify({ name: "缝纫工艺" }) });
    await call("/api/knowledge-bases", { method: "POST", key: keys.otherBoss, body: JSON.stringify({ name: "华美秘方" }) });

    const client = await mcpClient(keys.staff);
    const result = await client.callTool({ name: "list_knowledge_bases", arguments: {} });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as {
      summary: string;
      knowledge_bases: { name: string; id: string }[];
      totals: { knowledge_bases: number };
    };
    const names = structured.knowledge_bases.map((kb) => kb.name);
    expect(names).toContain("缝纫工艺");
    expect(names).not.toContain("华美秘方");
    expect(structured.totals.knowledge_bases).toBe(names.length);
    // The text is the summary, once: the ids are in the structure.
    const text = (result.content as { type: string; text: string }[]).map((c) => c.text).join("\n");
    expect(text).toBe(structured.summary);
    expect(text).toContain("缝纫工艺");
  });

  it("returns a tool error naming the field when the input fails the schema", async () => {
    const client = await mcpClient(keys.staff);
    const result = await client.callTool({ name: "list_knowledge_bases", arguments: { name_contains: 42 } });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text).toContain("name_contains");
  });

  it("answers an unknown tool with a JSON-RPC error listing the available tools", async () => {
    const client = await mcpClient(keys.staff);
    const error = await client.callTool({ name: "drop_all_tables", arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toContain("list_knowledge_bases");
  });

  it("refuses to connect without a key", async () => {
    await expect(mcpClient()).rejects.toThrow(/401|nauthorized/);
  });
});

describe("/mcp over raw HTTP", () => {
  const headers = { Accept: "application/json, text/event-stream", "Content-Type": "application/json" };

  it("answers malformed JSON with a JSON-RPC parse error", async () => {
    const res = await call("/mcp", { method: "POST", key: keys.staff, headers, body: "{not json" });
    expect(res.status).toBe(400);
    const body = await res.json<{ error: { code: number } }>();
    expect(body.error.code).toBe(-32700);
  });

  it("answers valid JSON that is not JSON-RPC as an Invalid Request (-32600)", async () => {
    const res = await call("/mcp", { method: "POST", key: keys.staff, headers, body: JSON.stringify({ hello: "world" }) });
    expect(res.status).toBe(400);
    const body = await res.json<{ jsonrpc: string; error: { code: number; message: string } }>();
    expect(body.jsonrpc).toBe("2.0");
    expect(body.error.code).toBe(-32600);
    expect(body.error.message).toMatch(/Invalid Request/);
  });

  it("answers GET and DELETE with 405 because the server is stateless", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await call("/mcp", { method, key: keys.staff, headers });
      expect(res.status).toBe(405);
      expect(res.headers.get("Allow")).toBe("POST");
    }
  });

  it("answers a browser's CORS preflight without a key, allowing the Authorization header", async () => {
    const res = await call("/mcp", {
      method: "OPTIONS",
      headers: {
        Origin: "http://localhost:6274",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, mcp-protocol-version",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("http://localhost:6274");
    expect(res.headers.get("Access-Control-Allow-Headers")?.toLowerCase()).toContain("authorization");
    expect(res.headers.get("Access-Control-Allow-Headers")?.toLowerCase()).toContain("mcp-protocol-version");
  });

  it("rejects a request without a key before any MCP handling", async () => {
    const res = await call("/mcp", {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
  });
});
