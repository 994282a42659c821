import { exports } from "cloudflare:workers";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect } from "vitest";
import { MemoryOAuthClient } from "./memory-client.ts";

/** OAuth is offered on https (and localhost) only, so these tests reach Weft as a deployment would. */
export const ORIGIN = "https://weft.test";
export const REDIRECT_URI = "http://127.0.0.1:33418/callback";

/** The Worker under test, as the network would reach it. */
export function send(url: string | URL, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(new Request(new URL(url, ORIGIN), { ...init, redirect: "manual" }));
}

/** A browser's cookies for one site: what `Set-Cookie` left, sent back on each request. */
export class Browser {
  readonly cookies = new Map<string, string>();

  async go(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set("Cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await send(url, { ...init, headers });
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(";")[0] ?? "";
      const at = pair.indexOf("=");
      const value = pair.slice(at + 1);
      if (/max-age=0|expires=Thu, 01 Jan 1970/i.test(line) || value === "") this.cookies.delete(pair.slice(0, at));
      else this.cookies.set(pair.slice(0, at), value);
    }
    return res;
  }

  /** A form submitted from Weft's own page: urlencoded, with the Origin a browser adds. */
  post(path: string, fields: Record<string, string>, origin = ORIGIN): Promise<Response> {
    return this.go(path, {
      method: "POST",
      headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  }
}

/** A hidden field's value in a page. */
export function hidden(page: string, name: string): string {
  const value = page.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1];
  expect(value, `hidden field ${name}`).toBeDefined();
  return value!
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
}

function transportFor(provider: OAuthClientProvider) {
  return new StreamableHTTPClientTransport(new URL(`${ORIGIN}/mcp`), {
    authProvider: provider,
    fetch: (url, init) => exports.default.fetch(new Request(url, init)),
  });
}

/** Signs in on the authorize page and answers the consent form; the client's redirect comes back. */
export async function signInAndConsent(
  authorizationUrl: URL,
  {
    username,
    password,
    decision = "allow",
    access = "read",
    confirmBy,
  }: { username: string; password: string; decision?: string; access?: string; confirmBy?: string },
  browser = new Browser(),
): Promise<URL> {
  const signInPage = await browser.go(authorizationUrl);
  expect(signInPage.status).toBe(200);
  const form = await signInPage.text();
  const signedIn = await browser.post("/oauth/sign-in", { username, password, next: hidden(form, "next") });
  expect(signedIn.status).toBe(303);
  const consent = await browser.go(signedIn.headers.get("Location")!);
  expect(consent.status).toBe(200);
  const handle = hidden(await consent.text(), "handle");
  const answered = await browser.post("/oauth/authorize", {
    handle,
    decision,
    access,
    ...(confirmBy ? { confirm_by: confirmBy } : {}),
  });
  expect(answered.status).toBe(302);
  return new URL(answered.headers.get("Location")!);
}

/**
 * The whole flow as an MCP client and its person go through it: the SDK client meets a 401,
 * discovers, registers and sends the person to the authorize page, who signs in and consents; the
 * client then exchanges the code and connects with its token.
 */
export async function connectWithOAuth(person: { username: string; password: string; access?: string }) {
  const provider = new MemoryOAuthClient(REDIRECT_URI);
  const first = transportFor(provider);
  await expect(new Client({ name: "oauth-test", version: "1.0.0" }).connect(first)).rejects.toThrow(/nauthorized/);
  expect(provider.authorizationUrl).toBeDefined();
  const back = await signInAndConsent(provider.authorizationUrl!, person);
  await first.finishAuth(back.searchParams.get("code")!);
  const client = new Client({ name: "oauth-test", version: "1.0.0" });
  await client.connect(transportFor(provider));
  return { client, provider };
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** A PKCE verifier and its S256 challenge. */
export async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return { verifier, challenge: base64url(digest) };
}

/** Dynamic client registration (RFC 7591) of a public client. */
export async function registerClient(redirectUris = [REDIRECT_URI], name = "Raw Client"): Promise<string> {
  const res = await send("/oauth/register", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ client_name: name, redirect_uris: redirectUris, token_endpoint_auth_method: "none" }),
  });
  expect(res.status).toBe(201);
  return (await res.json<{ client_id: string }>()).client_id;
}

/** An authorization request URL; `challenge: null` leaves PKCE out. */
export function authorizeUrl({
  clientId,
  challenge,
  state = "st-1",
  scope = "weft:read",
  redirectUri = REDIRECT_URI,
}: {
  clientId: string;
  challenge: string | null;
  state?: string;
  scope?: string;
  redirectUri?: string;
}): URL {
  const url = new URL("/oauth/authorize", ORIGIN);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", clientId);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("state", state);
  url.searchParams.set("scope", scope);
  url.searchParams.set("resource", `${ORIGIN}/mcp`);
  if (challenge) {
    url.searchParams.set("code_challenge", challenge);
    url.searchParams.set("code_challenge_method", "S256");
  }
  return url;
}

/** A token request to the token endpoint, form-encoded as clients send it. */
export function tokenRequest(fields: Record<string, string>): Promise<Response> {
  return send("/oauth/token", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Registration, authorization and code exchange by hand; the token response and what led to it. */
export async function tokensFor(person: { username: string; password: string; access?: string; confirmBy?: string }) {
  const clientId = await registerClient();
  const { verifier, challenge } = await pkce();
  const back = await signInAndConsent(authorizeUrl({ clientId, challenge }), person);
  const code = back.searchParams.get("code")!;
  const res = await tokenRequest({
    grant_type: "authorization_code",
    code,
    code_verifier: verifier,
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
  });
  expect(res.status).toBe(200);
  const tokens = await res.json<{ access_token: string; refresh_token: string; scope: string }>();
  return { clientId, code, verifier, tokens };
}

/** A JSON-RPC request to /mcp with a bearer credential. */
export async function mcpCall(token: string, method: string, params: Record<string, unknown> = {}, origin = ORIGIN) {
  const res = await exports.default.fetch(
    new Request(`${origin}/mcp`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    }),
  );
  // biome-ignore lint/suspicious/noExplicitAny: tests read JSON-RPC answers loosely; the assertions are the check
  return { status: res.status, headers: res.headers, body: res.status === 200 ? await res.json<any>() : await res.text() };
}
