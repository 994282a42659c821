import { beforeAll, describe, expect, it, vi } from "vitest";
import { dbOf, keys } from "../fixtures.ts";
import { call, callJson } from "../helpers.ts";
import { DOWN, installFakeNetwork, UPSTREAM } from "./fake-upstream.ts";

beforeAll(() => {
  installFakeNetwork();
  vi.spyOn(console, "warn").mockImplementation(() => {});
});

const register = (body: string) => callJson("/api/mcp/servers", { method: "POST", key: keys.boss, body });

describe("what the registry and the proxy refuse before contacting a server", () => {
  it("refuses a header or argument named __proto__ with 400 naming it, rather than dropping it", async () => {
    const created = await register(`{"name":"proto","url":"${UPSTREAM}","headers":{"__proto__":"x"}}`);
    expect(created.status).toBe(400);
    expect(created.body.error.message).toContain("headers.__proto__");
    const mixed = await register(`{"name":"proto","url":"${UPSTREAM}","headers":{"X-Key":"a","__proto__":"x"}}`);
    expect(mixed.status).toBe(400);

    const { body } = await register(JSON.stringify({ name: "proto", url: UPSTREAM }));
    const patched = await callJson(`/api/mcp/servers/${body.id}`, {
      method: "PATCH",
      key: keys.boss,
      body: `{"headers":{"__proto__":null}}`,
    });
    expect(patched.status).toBe(400);
    expect(patched.body.error.message).toContain("headers.__proto__");

    const proxied = await callJson(`/api/mcp/proxy/${body.id}/tools/echo/call`, {
      method: "POST",
      key: keys.boss,
      body: `{"message":"hi","__proto__":{"admin":true}}`,
    });
    expect(proxied.status).toBe(400);
    expect(proxied.body.error.message).toContain("__proto__");
  });

  it("answers a malformed proxy body 400 even while the server is down, without calling it", async () => {
    const { body } = await register(JSON.stringify({ name: "gone", url: UPSTREAM }));
    await dbOf("t-jinxiu")
      .prepare("UPDATE mcp_servers SET url = ?, tools_fetched_at = NULL WHERE id = ?")
      .bind(DOWN, body.id)
      .run();
    for (const sent of ["{bad", "", "null", "[1]", '"text"', "5"]) {
      const res = await callJson(`/api/mcp/proxy/${body.id}/tools/echo/call`, {
        method: "POST",
        key: keys.boss,
        body: sent,
      });
      expect(res.status, sent).toBe(400);
      expect(res.body.error.message, sent).toContain("JSON object of the tool's parameters");
      expect(res.body.error.details, sent).toMatchObject({ is_upstream: false, status_code: 400, retryable: false });
    }
    const health = await callJson(`/api/mcp/servers/${body.id}`, { key: keys.boss });
    expect(health.body.health.last_error).toBeNull();
    // A well-formed body reaches the server, which is down.
    expect((await call(`/api/mcp/proxy/${body.id}/tools/echo/call`, { method: "POST", key: keys.boss, body: "{}" })).status).toBe(
      502,
    );
  });
});
