import { describe, expect, it } from "vitest";
import { keys, logins } from "../fixtures.ts";
import { call } from "../helpers.ts";
import { connectWithOAuth, ORIGIN, send } from "./browser.ts";

describe("OAuth for /mcp", () => {
  it("answers /mcp without credentials with a 401 naming the protected resource metadata", async () => {
    const res = await send("/mcp", { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } });
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toContain(
      `resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp"`,
    );
    const metadata = await (await send("/.well-known/oauth-protected-resource/mcp")).json<Record<string, unknown>>();
    expect(metadata.resource).toBe(`${ORIGIN}/mcp`);
    expect(metadata.authorization_servers).toEqual([ORIGIN]);
    const server = await (await send("/.well-known/oauth-authorization-server")).json<Record<string, unknown>>();
    expect(server.issuer).toBe(ORIGIN);
    expect(server.code_challenge_methods_supported).toEqual(["S256"]);
    expect(server.registration_endpoint).toBe(`${ORIGIN}/oauth/register`);
  });

  it("completes sign-in and consent with the SDK client, which then lists tools as that person", async () => {
    const { client, provider } = await connectWithOAuth({ ...logins.boss, access: "write" });
    expect(provider.saved?.access_token).toBeDefined();
    expect(provider.saved?.refresh_token).toBeDefined();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("prepare_order");
    await client.close();
  });

  it("keeps API keys working at /mcp beside tokens, and over plain http where OAuth is off", async () => {
    const res = await send("/mcp", {
      method: "POST",
      headers: {
        Authorization: `Bearer ${keys.boss}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(200);
    expect((await call("/.well-known/oauth-authorization-server")).status).toBe(404);
  });
});
