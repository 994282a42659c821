import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type OAuthServer, startOAuthServer } from "../../scripts/mcp-test-servers.ts";

const baseUrl = inject("baseUrl");
const logFile = inject("logFile");
const run = Date.now().toString(36);

let oauth: OAuthServer;
/** The boss's Weft session: the provider sends back a browser, which must be signed in to Weft. */
let boss: string;
beforeAll(async () => {
  oauth = await startOAuthServer();
  const login = await fetch(`${baseUrl}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: baseUrl },
    body: JSON.stringify({ username: "boss", password: "boss123" }),
  });
  expect(login.status).toBe(200);
  boss = (login.headers.get("Set-Cookie") ?? "").split(";")[0] as string;
});
afterAll(async () => {
  await oauth?.stop();
});

async function api(path: string, { method = "GET", body }: { method?: string; body?: unknown } = {}) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: "Bearer dev-boss-key", "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: tests read JSON answers loosely; the assertions are the check
  return { status: res.status, text, body: JSON.parse(text) as Record<string, any> };
}

/**
 * Plays the boss's browser: follows the authorization URL to the provider, then its redirect to
 * Weft, first without a Weft session (refused, and the link is not spent), then signed in.
 */
async function signInAsBrowser(authorizationUrl: string) {
  const provider = await fetch(authorizationUrl, { redirect: "manual" });
  expect(provider.status).toBe(302);
  const callback = provider.headers.get("Location") ?? "";
  expect(callback.startsWith(`${baseUrl}/api/mcp/oauth/callback?`)).toBe(true);
  expect((await fetch(callback)).status).toBe(401);
  const res = await fetch(callback, { headers: { Cookie: boss } });
  // biome-ignore lint/suspicious/noExplicitAny: tests read JSON answers loosely; the assertions are the check
  return { status: res.status, body: (await res.json()) as Record<string, any>, callback };
}

describe("an MCP server that needs OAuth", () => {
  it("signs in through the provider, stores tokens sealed, refreshes them and revokes them on delete", async () => {
    const created = await api("/api/mcp/servers", {
      method: "POST",
      body: { name: `oauth-${run}`, url: oauth.url, auth: "oauth" },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.health.status).toBe("needs_sign_in");
    const authorizationUrl = created.body.sign_in.authorization_url as string;
    expect(authorizationUrl).toContain("code_challenge_method=S256");
    const id = created.body.id as string;

    const signedIn = await signInAsBrowser(authorizationUrl);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ server_id: id, signed_in: true, tool_count: 4 });
    // The state is single-use.
    expect((await fetch(signedIn.callback, { headers: { Cookie: boss } })).status).toBe(404);

    const view = await api(`/api/mcp/servers/${id}`);
    expect(view.body.health.status).toBe("ok");
    const tree = await api(`/api/mcp/proxy/${id}/tools/tree/call`, { method: "POST", body: { root: { label: "a" } } });
    expect(tree.status, tree.text).toBe(200);
    expect(tree.body.text).toBe("nodes: 1");

    oauth.expireAccessTokens();
    const again = await api(`/api/mcp/proxy/${id}/tools/tree/call`, { method: "POST", body: { root: { label: "a" } } });
    expect(again.status, again.text).toBe(200);
    expect(oauth.refreshes()).toBe(1);

    for (const answer of [created, view, tree, again]) {
      expect(answer.text).not.toMatch(/access_token|refresh_token/);
      for (const token of oauth.issued()) expect(answer.text).not.toContain(token);
    }
    expect((await api(`/api/mcp/servers/${id}`, { method: "DELETE" })).status).toBe(200);
    expect(oauth.revoked.length).toBe(2);
  });

  it("says when a server needs signing in again", async () => {
    const created = await api("/api/mcp/servers", {
      method: "POST",
      body: { name: `oauth2-${run}`, url: oauth.url, auth: "oauth" },
    });
    const call = await api(`/api/mcp/proxy/${created.body.id}/tools/tree/call`, { method: "POST", body: { root: {} } });
    expect(call.status).toBe(502);
    expect(call.body.error.message).toContain("needs signing in");
    expect(call.body.error.details).toMatchObject({ is_upstream: true, status_code: 401, retryable: false });
  });

  it("refuses a callback with an unknown state (404 with or without a session) and a provider's refusal", async () => {
    const forged = `${baseUrl}/api/mcp/oauth/callback?state=forged&code=x`;
    expect((await fetch(forged, { headers: { Cookie: boss } })).status).toBe(404);
    expect((await fetch(forged)).status).toBe(404);
    expect((await fetch(`${baseUrl}/api/mcp/oauth/callback?error=access_denied`)).status).toBe(400);
  });

  it("keeps tokens out of the log", async () => {
    const { readFileSync } = await import("node:fs");
    const log = readFileSync(logFile, "utf8");
    expect(oauth.issued().length).toBeGreaterThan(0);
    for (const token of oauth.issued()) expect(log).not.toContain(token);
  });
});
