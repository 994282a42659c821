import { describe, expect, it } from "vitest";
import { keys } from "../fixtures.ts";
import { call, callJson } from "../helpers.ts";
import { send } from "../oauth/browser.ts";

// Issue 39's probe: Host (and, where a browser sends it, Origin) is checked on every route before
// anything else, the OAuth provider's included (N2: a Host that is no host name was a plain-text
// 500); and the REST proxy takes JSON only, as every JSON route does (N3).

const ROUTES: [string, RequestInit][] = [
  ["/healthz", {}],
  ["/api/keys", {}],
  ["/api/chat/model", {}],
  ["/oauth/authorize", {}],
  ["/oauth/register", { method: "POST", body: "{}" }],
  ["/oauth/token", { method: "POST", body: "" }],
  ["/.well-known/oauth-authorization-server", {}],
  ["/actions/0000", {}],
];

describe("Host and Origin, on every route", () => {
  it("answers a Host that is no host name with a 400 in JSON, never a 500 (N2)", async () => {
    for (const host of ["localhost :8792", "local host", "localhost:8787/x"]) {
      for (const [path, init] of ROUTES) {
        const res = await call(path, { ...init, key: keys.boss, headers: { Host: host } });
        expect(res.status, `${host} ${path}`).toBe(400);
        expect(await res.json()).toMatchObject({ error: { code: "bad_request" } });
      }
    }
  });

  it("refuses a Host that is not the deployment's on every route (DNS rebinding), not only /mcp", async () => {
    for (const [path, init] of ROUTES) {
      const res = await call(path, { ...init, key: keys.boss, headers: { Host: "evil.example.com" } });
      expect(res.status, path).toBe(403);
      expect(await res.text()).toContain("ALLOWED_HOSTS");
    }
    expect((await call("/healthz", { headers: { Host: "localhost:8787" } })).status).toBe(200);
  });

  it("refuses a browser's foreign Origin, and lets the deployment's own pages and the configured ones through", async () => {
    const create = (origin: string) =>
      callJson("/api/keys", {
        method: "POST",
        key: keys.staff,
        headers: { Origin: origin },
        body: JSON.stringify({ name: "o" }),
      });
    expect((await create("https://evil.example")).status).toBe(403);
    expect((await create("null")).status).toBe(403);
    expect((await create("http://weft.test")).status).toBe(201);
    expect((await create("http://localhost:5173")).status).toBe(201);
    // OAuth discovery and the token endpoint serve browser-based clients of any origin, with CORS.
    const discovery = await send("/.well-known/oauth-authorization-server", { headers: { Origin: "https://inspector.example" } });
    expect(discovery.status).toBe(200);
  });
});

describe("N3: the REST proxy takes JSON only", () => {
  it("answers a valid body sent as text, as a form or with no Content-Type with 415, before any server is reached", async () => {
    const path = "/api/mcp/proxy/no-such-server/tools/echo/call";
    for (const contentType of ["text/plain", "application/x-www-form-urlencoded", null]) {
      const headers = new Headers();
      if (contentType) headers.set("Content-Type", contentType);
      const res = await call(path, {
        method: "POST",
        key: keys.boss,
        headers,
        body: new TextEncoder().encode('{"text":"hi"}'),
      });
      expect(res.status, String(contentType)).toBe(415);
      expect(await res.json()).toMatchObject({ error: { code: "unsupported_media_type", details: { is_upstream: false } } });
    }
  });
});
