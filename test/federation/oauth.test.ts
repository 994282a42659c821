import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { signIn } from "../chat/sign-in.ts";
import { dbOf, keys } from "../fixtures.ts";
import { call, callJson } from "../helpers.ts";
import { fakeOAuth, SECURE } from "./fake-oauth.ts";
import { installFakeNetwork } from "./fake-upstream.ts";

const oauth = fakeOAuth();
/** The demo boss's browser session: the callback is finished only in a browser signed in to Weft. */
let boss: string;

beforeAll(async () => {
  installFakeNetwork(oauth.handler);
  boss = await signIn("boss", "boss123");
  vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterAll(() => {
  vi.restoreAllMocks();
});

/** A JSON call as the demo boss, unless `init` says another key. */
const json = (path: string, init: Parameters<typeof call>[1] = {}) => callJson(path, { key: keys.boss, ...init });

/** The callback the provider sends a browser to once it approves (at once, here). */
async function callbackOf(authorizationUrl: string): Promise<string> {
  const provider = await fetch(authorizationUrl, { redirect: "manual" });
  const callback = new URL(provider.headers.get("Location") ?? "");
  return `${callback.pathname}${callback.search}`;
}

/** Plays a browser with the Weft session `cookie` (the boss's unless told) following the provider back. */
async function approve(authorizationUrl: string, cookie = boss) {
  return json(await callbackOf(authorizationUrl), { key: undefined, headers: { Cookie: cookie } });
}

/** A new OAuth server of the demo workshop, registered by its boss; its sign-in link. */
async function register(name: string): Promise<{ id: string; link: string }> {
  const created = await json("/api/mcp/servers", { method: "POST", body: JSON.stringify({ name, url: SECURE, auth: "oauth" }) });
  expect(created.status, created.text).toBe(201);
  return { id: created.body.id, link: created.body.sign_in.authorization_url };
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
    const callback = await callbackOf((await register("secure2")).link);
    expect((await call(callback, { headers: { Cookie: boss } })).status).toBe(200);
    expect((await call(callback, { headers: { Cookie: boss } })).status).toBe(404);
  });

  it("is finished only in a browser signed in to Weft by someone who may manage the server, and a refusal spends nothing", async () => {
    const { id, link } = await register("linking");
    const callback = await callbackOf(link);
    const asBrowser = (cookie?: string) =>
      call(callback, {
        redirect: "manual",
        headers: { Accept: "text/html", ...(cookie ? { Cookie: cookie } : {}) },
      });
    const refusals = [
      { who: "nobody signed in", cookie: undefined, status: 401 },
      { who: "an ended session", cookie: "weft_session=forged", status: 401 },
      { who: "an API key, no session", cookie: undefined, key: keys.boss, status: 401 },
      { who: "staff of the same workshop", cookie: await signIn("staff", "staff123"), status: 403 },
      { who: "a boss of another workshop", cookie: await signIn("otherboss", "boss123"), status: 403 },
    ];
    const issued = oauth.state.access.size;
    for (const { who, cookie, key, status } of refusals) {
      const answer = await json(callback, { key, headers: cookie ? { Cookie: cookie } : {} });
      expect(answer.status, `${who}: ${answer.text}`).toBe(status);
      const browser = await asBrowser(cookie);
      expect(browser.status, who).toBe(303);
      expect(browser.headers.get("Location"), who).toBe("/?mcp_sign_in=not_allowed");
    }
    // Nothing was stored for any of them, and the link still works for the boss.
    expect((await json(`/api/mcp/servers/${id}`)).body.health.status).toBe("needs_sign_in");
    expect(oauth.state.access.size).toBe(issued);
    const done = await asBrowser(boss);
    expect(done.headers.get("Location")).toBe(`/?mcp_sign_in=ok&server=${id}`);
    expect((await json(`/api/mcp/servers/${id}`)).body.health.status).toBe("ok");
  });

  it("answers 404 (expired, for a browser) to an unknown, used or expired state, whoever opens it", async () => {
    const used = await callbackOf((await register("spent")).link);
    expect((await call(used, { headers: { Cookie: boss } })).status).toBe(200);
    const { id, link } = await register("lapsed");
    const lapsed = await callbackOf(link);
    await dbOf("t-jinxiu")
      .prepare("UPDATE mcp_servers SET oauth_state_expires_at = '2020-01-01T00:00:00.000Z' WHERE id = ?")
      .bind(id)
      .run();
    const links = {
      "a made-up state": "/api/mcp/oauth/callback?state=made-up&code=x",
      "a used state": used,
      "an expired state": lapsed,
    };
    const people = {
      nobody: undefined,
      "an ended session": "weft_session=forged",
      "staff of the workshop": await signIn("staff", "staff123"),
      "a boss of another workshop": await signIn("otherboss", "boss123"),
      "the workshop's boss": boss,
    };
    for (const [what, link] of Object.entries(links)) {
      for (const [who, cookie] of Object.entries(people)) {
        const headers: Record<string, string> = cookie ? { Cookie: cookie } : {};
        const answer = await json(link, { key: undefined, headers });
        expect(answer.status, `${what}, ${who}: ${answer.text}`).toBe(404);
        expect(answer.body.error.message).toContain("unknown, used or expired");
        const browser = await call(link, { redirect: "manual", headers: { ...headers, Accept: "text/html" } });
        expect(browser.headers.get("Location"), `${what}, ${who}`).toBe("/?mcp_sign_in=expired");
      }
    }
    expect((await json(`/api/mcp/servers/${id}`)).body.health.status).toBe("needs_sign_in");
  });

  it("may be finished by the workshop's admin, who may manage its servers too", async () => {
    const { id, link } = await register("by-admin");
    const done = await approve(link, await signIn("admin", "admin123"));
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ server_id: id, signed_in: true });
  });

  it("sends a browser back to the settings page with the outcome, never the provider's words", async () => {
    const created = await json("/api/mcp/servers", {
      method: "POST",
      body: JSON.stringify({ name: "browser", url: SECURE, auth: "oauth" }),
    });
    const callback = await callbackOf(created.body.sign_in.authorization_url);
    const asBrowser = (path: string) =>
      call(path, { redirect: "manual", headers: { Accept: "text/html,application/xhtml+xml", Cookie: boss } });
    const done = await asBrowser(callback);
    expect(done.status, await done.clone().text()).toBe(303);
    expect(done.headers.get("Location")).toBe(`/?mcp_sign_in=ok&server=${created.body.id}`);
    expect((await json(`/api/mcp/servers/${created.body.id}`)).body.health.status).toBe("ok");
    const replayed = await asBrowser(callback);
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
