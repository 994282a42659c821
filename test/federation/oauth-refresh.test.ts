import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { REFRESH_MARGIN_MS } from "../../src/federation/oauth-refresh.ts";
import { signIn } from "../chat/sign-in.ts";
import { keys } from "../fixtures.ts";
import { call, callJson } from "../helpers.ts";
import { fakeOAuth, SECURE } from "./fake-oauth.ts";
import { installFakeNetwork } from "./fake-upstream.ts";

const oauth = fakeOAuth();
// Tokens announced as living less than the refresh margin are, for Weft, about to expire at once.
const SHORT = REFRESH_MARGIN_MS / 1000 / 2;
/** The demo boss's browser session, which finishes the sign-ins. */
let boss: string;

beforeAll(async () => {
  installFakeNetwork(oauth.handler);
  boss = await signIn("boss", "boss123");
  vi.spyOn(console, "warn").mockImplementation(() => {});
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterAll(() => {
  vi.restoreAllMocks();
});
afterEach(() => {
  oauth.state.expiresIn = 3600;
  oauth.state.refreshGate = undefined;
  oauth.state.refuseTokens = false;
  oauth.state.withRefreshTokens = true;
  oauth.state.sameAccessOnRefresh = false;
  oauth.state.stateful = false;
  oauth.state.refuseNextCall = false;
  oauth.state.mcpRequests.length = 0;
});

/** A JSON call as the demo boss, unless `init` says another key. */
const json = (path: string, init: Parameters<typeof call>[1] = {}) => callJson(path, { key: keys.boss, ...init });

/** Registers an OAuth server and plays the boss's signed-in browser through the sign-in, with tokens living `expiresIn` seconds. */
async function signedIn(name: string, expiresIn: number): Promise<string> {
  oauth.state.expiresIn = expiresIn;
  const created = await json("/api/mcp/servers", { method: "POST", body: JSON.stringify({ name, url: SECURE, auth: "oauth" }) });
  expect(created.status, created.text).toBe(201);
  const provider = await fetch(created.body.sign_in.authorization_url, { redirect: "manual" });
  const callback = new URL(provider.headers.get("Location") ?? "");
  expect((await call(`${callback.pathname}${callback.search}`, { headers: { Cookie: boss } })).status).toBe(200);
  oauth.state.expiresIn = 3600;
  return created.body.id;
}

const ping = (id: string) => json(`/api/mcp/proxy/${id}/tools/ping_secure/call`, { method: "POST", body: "{}" });

/**
 * Two calls to the server while the provider holds its refresh answer, so both are in flight (one
 * refreshing, one waiting) before it answers; their answers.
 */
async function twoPingsAcrossOneRefresh(id: string) {
  let open = () => {};
  oauth.state.refreshGate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const first = ping(id);
  const second = ping(id);
  await new Promise((resolve) => setTimeout(resolve, 300));
  open();
  return Promise.all([first, second]);
}

describe("OAuth tokens near their expiry", () => {
  it("are refreshed before use, so the server never sees the old token refused", async () => {
    const id = await signedIn("soon", SHORT);
    const { refreshes, unauthorized } = oauth.state;
    const pong = await ping(id);
    expect(pong.status, pong.text).toBe(200);
    expect(pong.body.text).toBe("pong");
    expect(oauth.state.refreshes).toBe(refreshes + 1);
    expect(oauth.state.unauthorized).toBe(unauthorized);
    // The refreshed token lives an hour: the next call uses it as it is.
    expect((await ping(id)).status).toBe(200);
    expect(oauth.state.refreshes).toBe(refreshes + 1);
  });

  it("mark the server as needing sign-in when the provider refuses the refresh, until a new sign-in", async () => {
    const id = await signedIn("refused", SHORT);
    oauth.state.refresh.clear();
    const failed = await ping(id);
    expect(failed.status, failed.text).toBe(502);
    expect(failed.body.error.message).toContain("needs signing in");
    expect(failed.body.error.details).toMatchObject({ is_upstream: true, status_code: 401, retryable: false });
    const health = (await json(`/api/mcp/servers/${id}`)).body.health;
    expect(health.status).toBe("needs_sign_in");
    expect(health.last_error).toContain("needs signing in");

    const again = await json(`/api/mcp/servers/${id}/sign-in`, { method: "POST" });
    const provider = await fetch(again.body.authorization_url, { redirect: "manual" });
    const callback = new URL(provider.headers.get("Location") ?? "");
    expect((await call(`${callback.pathname}${callback.search}`, { headers: { Cookie: boss } })).status).toBe(200);
    expect((await json(`/api/mcp/servers/${id}`)).body.health.status).toBe("ok");
    expect((await ping(id)).status).toBe(200);
  });

  it("are refreshed once when two requests race, and both requests get an answer", async () => {
    const id = await signedIn("racing", SHORT);
    const { refreshes, refusedRefreshes } = oauth.state;
    const answers = await twoPingsAcrossOneRefresh(id);
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    expect(oauth.state.refreshes).toBe(refreshes + 1);
    expect(oauth.state.refusedRefreshes).toBe(refusedRefreshes);
    // What was stored is the winner's token set: still good, and not refreshed again.
    expect((await ping(id)).status).toBe(200);
    expect(oauth.state.refreshes).toBe(refreshes + 1);
    expect((await json(`/api/mcp/servers/${id}`)).body.health.status).toBe("ok");
  });

  it("are not refreshed while they have longer than the margin to live", async () => {
    const id = await signedIn("lasting", 3600);
    const { refreshes } = oauth.state;
    expect((await ping(id)).status).toBe(200);
    expect(oauth.state.refreshes).toBe(refreshes);
  });
});

describe("OAuth tokens the server refuses although they looked valid", () => {
  it("are refreshed once when two calls both get 401, and both calls get an answer", async () => {
    const id = await signedIn("refused-racing", 3600);
    const { refreshes, refusedRefreshes } = oauth.state;
    // The server forgets every access token it issued: both calls' tokens look valid to Weft and are answered 401.
    oauth.state.access.clear();
    const answers = await twoPingsAcrossOneRefresh(id);
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    expect(oauth.state.refreshes).toBe(refreshes + 1);
    expect(oauth.state.refusedRefreshes).toBe(refusedRefreshes);
    expect((await json(`/api/mcp/servers/${id}`)).body.health.status).toBe("ok");
    expect((await ping(id)).status).toBe(200);
    expect(oauth.state.refreshes).toBe(refreshes + 1);
  });

  it("mark the server as needing sign-in when the refresh after a 401 is refused", async () => {
    const id = await signedIn("refused-after-401", 3600);
    oauth.state.access.clear();
    oauth.state.refresh.clear();
    const failed = await ping(id);
    expect(failed.status, failed.text).toBe(502);
    expect(failed.body.error.message).toContain("needs signing in");
    expect(failed.body.error.details).toMatchObject({ status_code: 401, retryable: false });
    expect((await json(`/api/mcp/servers/${id}`)).body.health.status).toBe("needs_sign_in");
  });

  it("mark the server as needing sign-in when there is no refresh token to renew them with", async () => {
    oauth.state.withRefreshTokens = false;
    const id = await signedIn("no-refresh-token", 3600);
    const { refreshes } = oauth.state;
    oauth.state.access.clear();
    const failed = await ping(id);
    expect(failed.status, failed.text).toBe(502);
    expect(failed.body.error.message).toContain("needs signing in");
    expect(oauth.state.refreshes).toBe(refreshes);
    expect((await json(`/api/mcp/servers/${id}`)).body.health.status).toBe("needs_sign_in");
  });

  it("are renewed once per call: a renewed token refused in turn ends the call with a clear 502", async () => {
    const id = await signedIn("refuses-all", 3600);
    const { refreshes, unauthorized } = oauth.state;
    oauth.state.refuseTokens = true;
    const failed = await ping(id);
    expect(failed.status, failed.text).toBe(502);
    expect(failed.body.error.message).toContain("refused its sign-in even after it was renewed");
    expect(failed.body.error.details).toMatchObject({ status_code: 401, retryable: false });
    expect(oauth.state.refreshes).toBe(refreshes + 1);
    // The first token, then the renewed one: two refusals, no loop.
    expect(oauth.state.unauthorized).toBe(unauthorized + 2);
    expect(failed.text).not.toMatch(/access_token|refresh_token/);
  });

  it("end the call when the renewal brings back the very token that was refused, rather than sending it again and again", async () => {
    const id = await signedIn("same-token", 3600);
    const { refreshes, unauthorized } = oauth.state;
    oauth.state.refuseTokens = true;
    oauth.state.sameAccessOnRefresh = true;
    const failed = await ping(id);
    expect(failed.status, failed.text).toBe(502);
    expect(failed.body.error.message).toContain("refused its sign-in even after it was renewed");
    expect(oauth.state.refreshes).toBe(refreshes + 1);
    // The refused token is not sent a second time.
    expect(oauth.state.unauthorized).toBe(unauthorized + 1);
  });
});

describe("sessions with an OAuth server", () => {
  const calls = () => oauth.state.mcpRequests.filter((r) => r.rpc === "tools/call");

  it("resume the session a token opened while the token lasts", async () => {
    oauth.state.stateful = true;
    const id = await signedIn("stateful-lasting", 3600);
    expect((await ping(id)).status).toBe(200);
    oauth.state.mcpRequests.length = 0;
    expect((await ping(id)).body.text).toBe("pong");
    expect(oauth.state.mcpRequests.map((r) => r.rpc)).toEqual(["tools/call"]);
  });

  it("never carry a session over to a token renewed after a 401: the renewed token opens its own", async () => {
    oauth.state.stateful = true;
    const id = await signedIn("stateful-renewed", 3600);
    expect((await ping(id)).status).toBe(200);
    const [first] = calls();
    const { refreshes } = oauth.state;
    // The server forgets the token (revoked early): the resumed session's request is refused.
    oauth.state.access.clear();
    oauth.state.mcpRequests.length = 0;
    const pong = await ping(id);
    expect(pong.status, pong.text).toBe(200);
    expect(oauth.state.refreshes).toBe(refreshes + 1);
    const [refused, renewed] = calls();
    expect(refused).toMatchObject({ sessionId: first?.sessionId, token: first?.token, status: 401 });
    expect(renewed).toMatchObject({ status: 200 });
    expect(renewed?.token).not.toBe(first?.token);
    expect(renewed?.sessionId).not.toBe(first?.sessionId);
    // The old session never saw the new token, and the new one was opened with it.
    expect(oauth.state.mcpRequests.filter((r) => r.sessionId === first?.sessionId && r.token === renewed?.token)).toEqual([]);
    expect(oauth.state.mcpRequests.filter((r) => r.rpc === "initialize").map((r) => r.token)).toEqual([renewed?.token]);
  });

  it("never keep a session whose token was renewed during the call", async () => {
    oauth.state.stateful = true;
    const id = await signedIn("stateful-renewed-midway", 3600);
    oauth.state.mcpRequests.length = 0;
    // The session opens with the first token; its call is refused once, and sent again with a renewed token.
    oauth.state.refuseNextCall = true;
    expect((await ping(id)).status).toBe(200);
    const [opened] = oauth.state.mcpRequests.filter((r) => r.rpc === "initialize");
    const [refused, renewed] = calls();
    expect(refused).toMatchObject({ sessionId: expect.any(String), token: opened?.token, status: 401 });
    expect(renewed).toMatchObject({ sessionId: refused?.sessionId, status: 200 });
    expect(renewed?.token).not.toBe(opened?.token);
    // Opened under one token and used with another: ended, not kept.
    expect(oauth.state.mcpRequests.at(-1)).toMatchObject({ rpc: "DELETE", sessionId: refused?.sessionId });
    oauth.state.mcpRequests.length = 0;
    expect((await ping(id)).status).toBe(200);
    expect(oauth.state.mcpRequests.filter((r) => r.rpc === "initialize").map((r) => r.token)).toEqual([renewed?.token]);
  });

  it("never resume a session after a new sign-in gave new tokens", async () => {
    oauth.state.stateful = true;
    const id = await signedIn("stateful-signed-in-again", 3600);
    expect((await ping(id)).status).toBe(200);
    const [first] = calls();
    const again = await json(`/api/mcp/servers/${id}/sign-in`, { method: "POST" });
    const provider = await fetch(again.body.authorization_url, { redirect: "manual" });
    const callback = new URL(provider.headers.get("Location") ?? "");
    expect((await call(`${callback.pathname}${callback.search}`, { headers: { Cookie: boss } })).status).toBe(200);
    oauth.state.mcpRequests.length = 0;
    expect((await ping(id)).status).toBe(200);
    const rpcs = oauth.state.mcpRequests.map((r) => r.rpc);
    expect(rpcs).toContain("initialize");
    expect(calls()[0]?.sessionId).not.toBe(first?.sessionId);
    expect(calls()[0]?.token).not.toBe(first?.token);
  });
});
