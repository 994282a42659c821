import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { call, callJson } from "../helpers.ts";
import { fakeOAuth, SECURE } from "./fake-oauth.ts";
import { installFakeNetwork } from "./fake-upstream.ts";

const oauth = fakeOAuth();

beforeAll(() => {
  installFakeNetwork(oauth.handler);
  vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterAll(() => {
  vi.restoreAllMocks();
});

/** A JSON call as the demo boss, unless `init` says another key. */
const json = (path: string, init: Parameters<typeof call>[1] = {}) => callJson(path, { key: "dev-boss-key", ...init });

/** Plays the boss's browser: the provider approves at once and redirects to Weft's callback. */
async function approve(authorizationUrl: string) {
  const provider = await fetch(authorizationUrl, { redirect: "manual" });
  const callback = new URL(provider.headers.get("Location") ?? "");
  return json(`${callback.pathname}${callback.search}`, { key: undefined });
}

describe("OAuth sign-in for an MCP server", () => {
  it("signs in, calls with the token, refreshes it on 401 and revokes it on delete", async () => {
    const created = await json("/api/mcp/servers", {
      method: "POST",
      body: JSON.stringify({ name: "secure", url: SECURE, auth: "oauth" }),
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.health.status).toBe("needs_sign_in");
    const link = new URL(created.body.sign_in.authorization_url);
    expect(link.origin).toBe("https://auth.example.com");
    expect(link.searchParams.get("redirect_uri")).toBe("http://weft.test/api/mcp/oauth/callback");

    const done = await approve(link.href);
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ signed_in: true, tool_count: 1 });

    const id = created.body.id;
    const pong = await json(`/api/mcp/proxy/${id}/tools/ping_secure/call`, { method: "POST", body: "{}" });
    expect(pong.body.text).toBe("pong");
    oauth.state.access.clear();
    const again = await json(`/api/mcp/proxy/${id}/tools/ping_secure/call`, { method: "POST", body: "{}" });
    expect(again.status, again.text).toBe(200);
    expect(oauth.state.refreshes).toBe(1);

    for (const answer of [created, done, pong, again]) expect(answer.text).not.toMatch(/access_token|refresh_token/);
    expect((await json(`/api/mcp/servers/${id}`, { method: "DELETE" })).status).toBe(200);
    expect(oauth.state.revoked).toHaveLength(2);
  });

  it("accepts a callback's state once", async () => {
    const created = await json("/api/mcp/servers", {
      method: "POST",
      body: JSON.stringify({ name: "secure2", url: SECURE, auth: "oauth" }),
    });
    const provider = await fetch(created.body.sign_in.authorization_url, { redirect: "manual" });
    const callback = new URL(provider.headers.get("Location") ?? "");
    expect((await call(`${callback.pathname}${callback.search}`)).status).toBe(200);
    expect((await call(`${callback.pathname}${callback.search}`)).status).toBe(404);
  });

  it("sends a browser back to the settings page with the outcome, never the provider's words", async () => {
    const created = await json("/api/mcp/servers", {
      method: "POST",
      body: JSON.stringify({ name: "browser", url: SECURE, auth: "oauth" }),
    });
    const provider = await fetch(created.body.sign_in.authorization_url, { redirect: "manual" });
    const callback = new URL(provider.headers.get("Location") ?? "");
    const asBrowser = (path: string) =>
      call(path, { redirect: "manual", headers: { Accept: "text/html,application/xhtml+xml" } });
    const done = await asBrowser(`${callback.pathname}${callback.search}`);
    expect(done.status, await done.clone().text()).toBe(303);
    expect(done.headers.get("Location")).toBe(`/?mcp_sign_in=ok&server=${created.body.id}`);
    expect((await json(`/api/mcp/servers/${created.body.id}`)).body.health.status).toBe("ok");
    const replayed = await asBrowser(`${callback.pathname}${callback.search}`);
    expect(replayed.headers.get("Location")).toBe("/?mcp_sign_in=expired");
    const denied = await asBrowser("/api/mcp/oauth/callback?error=access_denied&error_description=Call+0800+now");
    expect(denied.status).toBe(303);
    expect(denied.headers.get("Location")).toBe("/?mcp_sign_in=denied");
  });

  it("refuses a sign-in link that is not an https web page (plain http here)", async () => {
    oauth.state.authorizeEndpoint = "http://auth.example.com/authorize";
    try {
      const created = await json("/api/mcp/servers", {
        method: "POST",
        body: JSON.stringify({ name: "hostile", url: SECURE, auth: "oauth" }),
      });
      expect(created.status).toBe(201);
      expect(created.body.sign_in.authorization_url).toBeUndefined();
      expect(created.body.sign_in.error).toContain("not https");
    } finally {
      oauth.state.authorizeEndpoint = "https://auth.example.com/authorize";
    }
  });
});
