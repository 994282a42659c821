import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { logins } from "../fixtures.ts";
import { authorizeUrl, Browser, hidden, mcpCall, pkce, REDIRECT_URI, send, signInAndConsent, tokenRequest } from "./browser.ts";

const CLIENT_ID = "https://app.example.com/oauth/client.json";
const boss = logins.boss;

/** Documents served at public URLs in these tests; any other outbound request fails the test. */
let documents: Map<string, () => Response>;
let fetched: string[];

beforeEach(() => {
  fetched = [];
  documents = new Map([
    [
      CLIENT_ID,
      () =>
        Response.json({
          client_id: CLIENT_ID,
          client_name: "Example Agent",
          redirect_uris: [REDIRECT_URI],
          token_endpoint_auth_method: "none",
        }),
    ],
  ]);
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const url = input instanceof Request ? input.url : String(input);
    fetched.push(url);
    const serve = documents.get(url);
    if (!serve) throw new Error(`unexpected outbound request to ${url}`);
    return serve();
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function authorizePage(clientId: string) {
  const { challenge } = await pkce();
  return new Browser().go(authorizeUrl({ clientId, challenge }));
}

describe("client ID metadata documents", () => {
  it("are advertised, read, shown by domain on the consent page, and end in a working token", async () => {
    const server = await (await send("/.well-known/oauth-authorization-server")).json<Record<string, unknown>>();
    expect(server.client_id_metadata_document_supported).toBe(true);
    const { verifier, challenge } = await pkce();
    const browser = new Browser();
    const url = authorizeUrl({ clientId: CLIENT_ID, challenge });
    const form = await (await browser.go(url)).text();
    const signedIn = await browser.post("/oauth/sign-in", { ...boss, next: hidden(form, "next") });
    const consent = await (await browser.go(signedIn.headers.get("Location")!)).text();
    expect(consent).toContain("Example Agent");
    expect(consent).toContain("published by app.example.com");
    const back = await signInAndConsent(url, boss);
    const res = await tokenRequest({
      grant_type: "authorization_code",
      code: back.searchParams.get("code")!,
      code_verifier: verifier,
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT_URI,
    });
    expect(res.status).toBe(200);
    const { access_token } = await res.json<{ access_token: string }>();
    expect((await mcpCall(access_token, "tools/list")).status).toBe(200);
    expect(fetched.every((u) => u === CLIENT_ID)).toBe(true);
  });

  it("are never fetched from a private, loopback, link-local or metadata address, in any spelling", async () => {
    for (const clientId of [
      "https://127.0.0.1/client.json",
      "https://2130706433/client.json",
      "https://10.0.0.8/client.json",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/client.json",
      "https://[::ffff:127.0.0.1]/client.json",
      "https://printer.local/client.json",
      "https://localhost/client.json",
    ]) {
      const res = await authorizePage(clientId);
      expect(res.status, clientId).toBe(400);
      expect(res.headers.get("Location")).toBeNull();
    }
    expect(fetched).toEqual([]);
  });

  it("refuse a redirect to a private address, a document past 5 KiB, and one naming another client", async () => {
    documents.set(CLIENT_ID, () => new Response(null, { status: 302, headers: { Location: "https://10.1.2.3/client.json" } }));
    expect((await authorizePage(CLIENT_ID)).status).toBe(400);
    documents.set(CLIENT_ID, () =>
      Response.json({ client_id: CLIENT_ID, client_name: "x".repeat(6000), redirect_uris: [REDIRECT_URI] }),
    );
    expect((await authorizePage(CLIENT_ID)).status).toBe(400);
    documents.set(CLIENT_ID, () =>
      Response.json({ client_id: "https://other.example.com/c.json", client_name: "Other", redirect_uris: [REDIRECT_URI] }),
    );
    const named = await authorizePage(CLIENT_ID);
    expect(named.status).toBe(400);
    expect(await named.text()).toContain("names another client_id");
    expect(fetched).not.toContain("https://10.1.2.3/client.json");
  });

  it("hold the client to the redirect URIs its document lists", async () => {
    const { challenge } = await pkce();
    const res = await new Browser().go(authorizeUrl({ clientId: CLIENT_ID, challenge, redirectUri: "https://evil.example/cb" }));
    expect(res.status).toBe(400);
    expect(res.headers.get("Location")).toBeNull();
  });
});
