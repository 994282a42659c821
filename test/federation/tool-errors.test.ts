import { beforeAll, describe, expect, it, vi } from "vitest";
import { keys } from "../fixtures.ts";
import { callJson, mcpClient } from "../helpers.ts";
import { installFakeNetwork, RPC_ERRORS } from "./fake-upstream.ts";

beforeAll(() => {
  installFakeNetwork();
  vi.spyOn(console, "warn").mockImplementation(() => {});
});

const boss = keys.boss;
const proxy = (id: string, tool: string, body = "{}") =>
  callJson(`/api/mcp/proxy/${id}/tools/${tool}/call`, { method: "POST", key: boss, body });

describe("a tool's error on an external server", () => {
  it("is reported as the JSON-RPC error the server answered, with its code, not as a timeout", async () => {
    const { body } = await callJson("/api/mcp/servers", {
      method: "POST",
      key: boss,
      body: JSON.stringify({ name: "quota", url: RPC_ERRORS }),
    });
    const res = await proxy(body.id, "quota");
    expect(res.status).toBe(502);
    expect(res.body.error.message).toBe("rpc-errors.example.com answered with JSON-RPC error -32001: Daily quota exceeded");
    expect(res.body.error.details).toEqual({ is_upstream: true, status_code: null, retryable: false, rpc_code: -32001 });
  });

  it("is counted apart and leaves the server's health and its other tools alone", async () => {
    const { body } = await callJson("/api/mcp/servers", {
      method: "POST",
      key: boss,
      body: JSON.stringify({ name: "apart", url: RPC_ERRORS, expose_on_mcp: true }),
    });
    expect((await callJson(`/api/mcp/servers/${body.id}/refresh`, { method: "POST", key: boss })).status).toBe(200);
    expect((await proxy(body.id, "quota")).status).toBe(502);
    expect((await proxy(body.id, "fail")).status).toBe(502);

    const { health } = (await callJson(`/api/mcp/servers/${body.id}`, { key: boss })).body;
    expect(health.status).toBe("ok");
    expect(health.last_error).toBeNull();
    expect(health.tool_errors).toMatchObject({ count: 2, last_error: "apart/fail failed: the database is on fire" });
    expect(health.tool_errors.last_error_at).toEqual(expect.any(String));

    expect((await proxy(body.id, "echo", JSON.stringify({ message: "still here" }))).body.text).toBe("echo: still here");
    const client = await mcpClient(boss);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("mcp_apart_echo");
    await client.close();
  });
});
