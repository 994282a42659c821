import { describe, expect, it, vi } from "vitest";
import { logins } from "../fixtures.ts";
import {
  authorizeUrl,
  Browser,
  hidden,
  mcpCall,
  ORIGIN,
  pkce,
  REDIRECT_URI,
  registerClient,
  signInAndConsent,
  tokenRequest,
  tokensFor,
} from "./browser.ts";

const boss = logins.boss;

/** Signs in on the authorize page and returns the consent page's response, unread. */
async function consentPageFor(url: URL, browser = new Browser()) {
  const form = await (await browser.go(url)).text();
  const signedIn = await browser.post("/oauth/sign-in", { ...boss, next: hidden(form, "next") });
  return { browser, consent: await browser.go(signedIn.headers.get("Location")!) };
}

describe("OAuth security", () => {
  it("refuses an authorization request without an S256 PKCE challenge, back at the client", async () => {
    const clientId = await registerClient();
    const res = await new Browser().go(authorizeUrl({ clientId, challenge: null }));
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get("Location")!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get("error")).toBe("invalid_request");
    expect(back.searchParams.get("state")).toBe("st-1");
  });

  it("matches redirect URIs exactly and never redirects to one it was not given", async () => {
    const clientId = await registerClient();
    const { challenge } = await pkce();
    for (const redirectUri of [`${REDIRECT_URI}/x`, "https://evil.example/callback", `${REDIRECT_URI}?a=1`]) {
      const res = await new Browser().go(authorizeUrl({ clientId, challenge, redirectUri }));
      expect(res.status).toBe(400);
      expect(res.headers.get("Location")).toBeNull();
    }
  });

  it("lets a loopback redirect URI change only its port (RFC 8252)", async () => {
    const clientId = await registerClient();
    const { challenge } = await pkce();
    const otherPort = REDIRECT_URI.replace("33418", "40123");
    const back = await signInAndConsent(authorizeUrl({ clientId, challenge, redirectUri: otherPort }), boss);
    expect(`${back.origin}${back.pathname}`).toBe(otherPort);
    const otherPath = await new Browser().go(authorizeUrl({ clientId, challenge, redirectUri: `${otherPort}x` }));
    expect(otherPath.status).toBe(400);
  });

  it("refuses framing of the consent page and a consent posted from another origin or none", async () => {
    const clientId = await registerClient();
    const { challenge } = await pkce();
    const { browser, consent } = await consentPageFor(authorizeUrl({ clientId, challenge }));
    expect(consent.status).toBe(200);
    expect(consent.headers.get("X-Frame-Options")).toBe("DENY");
    expect(consent.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
    const handle = hidden(await consent.text(), "handle");
    expect((await browser.post("/oauth/authorize", { handle, decision: "allow" }, "https://evil.example")).status).toBe(403);
    const noOrigin = await browser.go("/oauth/authorize", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ handle, decision: "allow" }).toString(),
    });
    expect(noOrigin.status).toBe(403);
    // The refused posts did not use up the handle: the person's own click still works.
    expect((await browser.post("/oauth/authorize", { handle, decision: "allow" })).status).toBe(302);
  });

  it("refuses a sign-in posted from another origin", async () => {
    const res = await new Browser().post("/oauth/sign-in", { ...boss, next: "?x=1" }, "https://evil.example");
    expect(res.status).toBe(403);
    expect(res.headers.get("Set-Cookie")).toBeNull();
  });

  it("uses a consent handle once, and a consent from another browser not at all", async () => {
    const clientId = await registerClient();
    const { challenge } = await pkce();
    const { browser, consent } = await consentPageFor(authorizeUrl({ clientId, challenge }));
    const handle = hidden(await consent.text(), "handle");
    const stranger = new Browser();
    for (const [name, value] of browser.cookies) if (name === "weft_session") stranger.cookies.set(name, value);
    expect((await stranger.post("/oauth/authorize", { handle, decision: "allow" })).status).toBe(400);
    expect((await browser.post("/oauth/authorize", { handle, decision: "allow" })).status).toBe(302);
    expect((await browser.post("/oauth/authorize", { handle, decision: "allow" })).status).toBe(400);
  });

  it("sends a denial back to the client as access_denied with its state", async () => {
    const clientId = await registerClient();
    const { challenge } = await pkce();
    const back = await signInAndConsent(authorizeUrl({ clientId, challenge, state: "keep-me" }), { ...boss, decision: "deny" });
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe("keep-me");
    expect(back.searchParams.get("code")).toBeNull();
  });

  it("exchanges a code once, only with its verifier", async () => {
    const clientId = await registerClient();
    const { verifier, challenge } = await pkce();
    const back = await signInAndConsent(authorizeUrl({ clientId, challenge }), boss);
    expect(back.searchParams.get("iss")).toBe(ORIGIN);
    const code = back.searchParams.get("code")!;
    const base = { grant_type: "authorization_code", code, client_id: clientId, redirect_uri: REDIRECT_URI };
    const wrong = await tokenRequest({ ...base, code_verifier: (await pkce()).verifier });
    expect(wrong.status).toBe(400);
    expect((await wrong.json<{ error: string }>()).error).toBe("invalid_grant");
    const right = await tokenRequest({ ...base, code_verifier: verifier });
    expect(right.status).toBe(200);
    expect(await right.json()).toMatchObject({ token_type: "bearer", expires_in: 3600, scope: "weft:read" });
    const replay = await tokenRequest({ ...base, code_verifier: verifier });
    expect(replay.status).toBe(400);
    expect((await replay.json<{ error: string }>()).error).toBe("invalid_grant");
  });

  it("rotates refresh tokens, and an access token works only for this server's /mcp", async () => {
    const { clientId, tokens } = await tokensFor(boss);
    expect((await mcpCall(tokens.access_token, "tools/list")).status).toBe(200);
    const refreshed = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);
    const next = await refreshed.json<{ access_token: string; refresh_token: string }>();
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    const again = await tokenRequest({ grant_type: "refresh_token", refresh_token: next.refresh_token, client_id: clientId });
    expect(again.status).toBe(200);
    // Once its successor has been used, the old refresh token is dead.
    const old = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId });
    expect(old.status).toBe(400);
    // Bound to the resource https://weft.test/mcp: the same token at another origin this deployment
    // serves is refused (one it does not serve never gets past the Host check).
    const elsewhere = await mcpCall(next.access_token, "tools/list", {}, "https://localhost");
    expect(elsewhere.status).toBe(401);
    expect((await mcpCall(next.access_token, "tools/list", {}, "https://weft-copy.test")).status).toBe(403);
    // And it is no API key: the REST API does not take it.
    const rest = await new Browser().go("/api/knowledge-bases", { headers: { Authorization: `Bearer ${next.access_token}` } });
    expect(rest.status).toBe(401);
  });

  it("writes no token, code or secret to any log", async () => {
    const lines: string[] = [];
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" "))),
    );
    try {
      const { clientId, code, verifier, tokens } = await tokensFor(boss);
      await mcpCall(tokens.access_token, "tools/list");
      await mcpCall(`${tokens.access_token}x`, "tools/list");
      await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId });
      await tokenRequest({ grant_type: "authorization_code", code, code_verifier: verifier, client_id: clientId });
      const secrets = [code, verifier, tokens.access_token, tokens.refresh_token, tokens.access_token.split(":")[2]];
      for (const line of lines) for (const secret of secrets) expect(line).not.toContain(secret);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
