import { describe, expect, it } from "vitest";
import { keys } from "../fixtures.ts";
import { call } from "../helpers.ts";

const headers = { Accept: "application/json, text/event-stream", "Content-Type": "application/json" };
const post = (body: string, extra: Record<string, string> = {}) =>
  call("/mcp", { method: "POST", key: keys.staff, headers: { ...headers, ...extra }, body });
const toolCall = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

type RpcAnswer = { jsonrpc: string; id: unknown; error?: { code: number; message: string }; result?: Record<string, unknown> };

describe("/mcp protocol details", () => {
  it("refuses a browser request from an origin that is not allowed (DNS rebinding)", async () => {
    const res = await post(JSON.stringify(toolCall(1, "list_knowledge_bases")), {
      Host: "evil.example.com",
      Origin: "http://evil.example.com",
    });
    expect(res.status).toBe(403);
    const preflight = await call("/mcp", {
      method: "OPTIONS",
      headers: { Origin: "http://evil.example.com", "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });

  it("lets allowed origins and origin-less clients through", async () => {
    expect((await post(JSON.stringify(toolCall(1, "list_knowledge_bases")), { Origin: "http://localhost:6274" })).status).toBe(
      200,
    );
    expect((await post(JSON.stringify(toolCall(1, "list_knowledge_bases")), { Origin: "http://weft.test" })).status).toBe(200);
    expect((await post(JSON.stringify(toolCall(1, "list_knowledge_bases")))).status).toBe(200);
    const lookalike = await post(JSON.stringify(toolCall(1, "list_knowledge_bases")), {
      Origin: "http://localhost.evil.example:80",
    });
    expect(lookalike.status).toBe(403);
  });

  it("caps the body at 1 MiB with 413, before parsing it", async () => {
    const huge = JSON.stringify(toolCall(1, "knowledge_search", { query: "x".repeat(2 * 1024 * 1024) }));
    const res = await post(huge);
    expect(res.status).toBe(413);
    expect(await res.text()).not.toContain("xxxxxxxxxx");
  });

  it("cuts a huge unknown tool name short in the error", async () => {
    const res = await post(JSON.stringify(toolCall(1, "a".repeat(500_000))));
    const body = await res.json<RpcAnswer>();
    expect(body.error?.code).toBe(-32602);
    expect(body.error!.message.length).toBeLessThan(1000);
  });

  it("answers valid JSON of the wrong shape as Invalid Request (-32600)", async () => {
    for (const message of [
      { jsonrpc: "1.0", id: 1, method: "tools/list" },
      { jsonrpc: "2.0", id: true, method: "tools/list" },
      { jsonrpc: "2.0", id: 1, method: 42 },
    ]) {
      const res = await post(JSON.stringify(message));
      expect(res.status).toBe(400);
      expect((await res.json<RpcAnswer>()).error?.code).toBe(-32600);
    }
  });

  it("answers tools/call without a tool name with -32602 in one line", async () => {
    const res = await post(JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { arguments: {} } }));
    const body = await res.json<RpcAnswer>();
    expect(body).toMatchObject({ id: 5, error: { code: -32602 } });
    expect(body.error!.message).not.toContain("\n");
    expect(body.error!.message).toMatch(/params\.name/);
  });

  it("answers malformed params of a method it serves as Invalid Params (-32602) in one line, never -32603", async () => {
    for (const [message, field] of [
      [{ jsonrpc: "2.0", id: 1, method: "initialize" }, "params"],
      [{ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 5, capabilities: {} } }, "protocolVersion"],
      [{ jsonrpc: "2.0", id: 1, method: "tools/list", params: { cursor: 5 } }, "cursor"],
      ...[null, [], "text", 3].map((args) => [toolCall(1, "list_knowledge_bases", args as never), "arguments"] as const),
    ] as const) {
      const res = await post(JSON.stringify(message));
      const body = await res.json<RpcAnswer>();
      expect(res.status, JSON.stringify(message)).toBe(400);
      expect(body).toMatchObject({ id: 1, error: { code: -32602 } });
      expect(body.error!.message).toContain(field);
      expect(body.error!.message).not.toContain("\n");
    }
  });

  it("refuses every batch, even a batch of one, with -32600: batching left MCP in revision 2025-06-18", async () => {
    for (const batch of [
      [],
      [toolCall(3, "list_knowledge_bases")],
      [toolCall(7, "prepare_piece_record", { process: "上领子", quantity: 1 }), { jsonrpc: "2.0", id: 8, method: "ping" }],
      [{ jsonrpc: "2.0", method: "notifications/initialized" }],
    ]) {
      const res = await post(JSON.stringify(batch));
      expect(res.status).toBe(400);
      const body = await res.json<RpcAnswer>();
      expect(Array.isArray(body)).toBe(false);
      expect(body).toMatchObject({ id: null, error: { code: -32600 } });
      expect(body.error!.message).toContain("2025-06-18");
    }
  });

  it("answers a notification with 202 and no body, and a 2025 ping with an empty result", async () => {
    const quiet = await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    expect(quiet.status).toBe(202);
    expect(await quiet.text()).toBe("");
    const ping = await post(JSON.stringify({ jsonrpc: "2.0", id: 4, method: "ping" }));
    expect(ping.status).toBe(200);
    expect(await ping.json()).toEqual({ jsonrpc: "2.0", id: 4, result: {} });
  });

  it("refuses a request that does not accept JSON with the transport's 406", async () => {
    const res = await post(JSON.stringify(toolCall(3, "list_knowledge_bases")), { Accept: "text/html" });
    expect(res.status).toBe(406);
    const body = await res.json<RpcAnswer>();
    expect(body).toMatchObject({ error: { code: -32000 } });
  });

  it("answers an unknown tool with -32602 naming the tools there are", async () => {
    const body = await (await post(JSON.stringify(toolCall(1, "no_such_tool")))).json<RpcAnswer>();
    expect(body).toMatchObject({ id: 1, error: { code: -32602 } });
    expect(body.error!.message).toContain("list_knowledge_bases");
  });

  it("refuses unknown tool arguments, naming them, so an agent learns of its typo", async () => {
    const body = await (
      await post(JSON.stringify(toolCall(1, "knowledge_search", { query: "领子", topk: 3 })))
    ).json<RpcAnswer>();
    expect(body.result).toMatchObject({ isError: true });
    expect(JSON.stringify(body.result)).toContain("topk");
  });

  it("keeps a client's request id only when it is a short plain token", async () => {
    const plain = await call("/healthz", { headers: { "X-Request-Id": "trace-42_a" } });
    expect(plain.headers.get("X-Request-Id")).toBe("trace-42_a");
    for (const hostile of ["<script>alert(1)</script>", "a".repeat(65), "id with spaces", "semi;colon"]) {
      const res = await call("/healthz", { headers: { "X-Request-Id": hostile } });
      expect(res.headers.get("X-Request-Id")).not.toBe(hostile);
      expect(res.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
