import { exports } from "cloudflare:workers";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { expect } from "vitest";

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
      const [pair] = line.split(";");
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
  return value!.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#39;/g, "'");
}

/** An MCP client's OAuth state kept in memory, as the SDK asks a client to keep it. */
export class MemoryOAuthClient implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | undefined;
  constructor(readonly metadata: Partial<OAuthClientMetadata> = {}) {}
  get redirectUrl() {
    return REDIRECT_URI;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Test Agent",
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...this.metadata,
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
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
  { username, password, decision = "allow", access = "read" }: { username: string; password: string; decision?: string; access?: string },
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
  const answered = await browser.post("/oauth/authorize", { handle, decision, access });
  expect(answered.status).toBe(302);
  return new URL(answered.headers.get("Location")!);
}

/**
 * The whole flow as an MCP client and its person go through it: the SDK client meets a 401,
 * discovers, registers and sends the person to the authorize page, who signs in and consents; the
 * client then exchanges the code and connects with its token.
 */
export async function connectWithOAuth(person: { username: string; password: string; access?: string }) {
  const provider = new MemoryOAuthClient();
  const first = transportFor(provider);
  await expect(new Client({ name: "oauth-test", version: "1.0.0" }).connect(first)).rejects.toThrow(/nauthorized/);
  expect(provider.authorizationUrl).toBeDefined();
  const back = await signInAndConsent(provider.authorizationUrl!, person);
  await first.finishAuth(back.searchParams.get("code")!);
  const client = new Client({ name: "oauth-test", version: "1.0.0" });
  await client.connect(transportFor(provider));
  return { client, provider };
}
