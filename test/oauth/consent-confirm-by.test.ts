import { describe, expect, it } from "vitest";
import { browserCall, signIn } from "../chat/sign-in.ts";
import { keys, logins } from "../fixtures.ts";
import { authorizeUrl, Browser, hidden, ORIGIN, pkce, registerClient, send, tokensFor } from "./browser.ts";

// The OAuth side of issue 39: the consent page explains each scope and lets the person choose who
// says yes to the app's writes (Weft's own pages unless they choose otherwise), changeable later
// under connected apps from a signed-in browser only; the metadata offers write access too; and a
// client's name is checked when it registers (N4), a malformed form is a 400 (N1).

interface Listed {
  id: string;
  client_name: string;
  confirm_by: string;
}

async function connectionsOf(key: string): Promise<Listed[]> {
  const res = await send("/api/oauth/connections", { headers: { Authorization: `Bearer ${key}` } });
  return (await res.json<{ connections: Listed[] }>()).connections;
}

async function consentPage(name = "Raw Client") {
  const clientId = await registerClient(undefined, name);
  const { challenge } = await pkce();
  const browser = new Browser();
  const form = await (await browser.go(authorizeUrl({ clientId, challenge, scope: "weft:read weft:write" }))).text();
  const signedIn = await browser.post("/oauth/sign-in", { ...logins.staff, next: hidden(form, "next") });
  return { browser, page: await browser.go(signedIn.headers.get("Location")!) };
}

const register = (body: unknown, contentLength?: string) =>
  send("/oauth/register", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(contentLength ? { "Content-Length": contentLength } : {}) },
    body: JSON.stringify(body),
  });

describe("the consent page and connected apps", () => {
  it("explains each scope and preselects Weft's own pages for who says yes", async () => {
    const { page } = await consentPage();
    const html = await page.text();
    expect(html).toContain("Read only (weft:read)");
    expect(html).toContain("Read and prepare writes (weft:read and weft:write)");
    expect(html).toContain("Who says yes to the writes it prepares");
    expect(html).toMatch(/name="confirm_by" value="weft" checked/);
    expect(html).not.toMatch(/value="(client|agent)" checked/);
  });

  it("records weft for an app connected without a choice, and the person's choice when they make one", async () => {
    await tokensFor({ ...logins.staff, access: "write" });
    await tokensFor({ ...logins.staff, access: "write", confirmBy: "client" });
    const listed = await connectionsOf(keys.staff);
    expect(listed.map((c) => c.confirm_by).sort()).toEqual(["client", "weft"]);
  });

  it("lets the person (or their workshop's admin) change it from the browser, never with a key", async () => {
    await tokensFor({ ...logins.staff, access: "write" });
    const [connection] = await connectionsOf(keys.staff);
    const path = `/api/oauth/connections/${connection!.id}`;
    const body = JSON.stringify({ confirm_by: "agent" });
    const headers = { "Content-Type": "application/json" };
    const byKey = await send(path, { method: "PATCH", headers: { ...headers, Authorization: `Bearer ${keys.staff}` }, body });
    expect(byKey.status).toBe(403);
    const staff2 = await signIn(logins.staff2.username, logins.staff2.password);
    expect((await browserCall(path, staff2, { method: "PATCH", headers, body })).status).toBe(404);
    const boss = await signIn(logins.boss.username, logins.boss.password);
    expect((await browserCall(path, boss, { method: "PATCH", headers, body })).status).toBe(404);
    const other = await signIn(logins.otherBoss.username, logins.otherBoss.password);
    expect((await browserCall(path, other, { method: "PATCH", headers, body })).status).toBe(404);
    const owner = await signIn(logins.staff.username, logins.staff.password);
    const changed = await browserCall(path, owner, { method: "PATCH", headers, body });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ id: connection!.id, confirm_by: "agent" });
    const admin = await signIn(logins.admin.username, logins.admin.password);
    const back = await browserCall(path, admin, { method: "PATCH", headers, body: JSON.stringify({ confirm_by: "weft" }) });
    expect(await back.json()).toMatchObject({ confirm_by: "weft" });
    for (const bad of ['{"confirm_by":"anyone"}', "{}", '{"confirm_by":"weft","scope":"x"}']) {
      expect((await browserCall(path, owner, { method: "PATCH", headers, body: bad })).status, bad).toBe(400);
    }
  });

  it("offers weft:read and weft:write in the protected resource's metadata and its 401", async () => {
    const metadata = await (await send("/.well-known/oauth-protected-resource/mcp")).json<{ scopes_supported: string[] }>();
    expect(metadata.scopes_supported).toEqual(["weft:read", "weft:write"]);
    const challenge = await send("/mcp", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get("WWW-Authenticate")).toContain('scope="weft:read weft:write"');
  });
});

describe("N4: a client registers under a name a person can read", () => {
  for (const [what, name] of [
    ["NUL", "Claude\u0000"],
    ["ESC", "Claude\u001b[2J"],
    ["U+202E", "Claude\u202etxt.exe"],
    ["300 KB", "C".repeat(300_000)],
  ] as const) {
    it(`refuses a client_name with ${what} as invalid_client_metadata, storing nothing`, async () => {
      const res = await register({ client_name: name, redirect_uris: ["http://127.0.0.1:33418/callback"] });
      expect(res.status).toBe(400);
      const body = await res.json<{ error: string; error_description: string }>();
      expect(body.error).toBe("invalid_client_metadata");
      expect(body.error_description).toMatch(/client_name|a registration is limited to/i);
    });
  }

  it("still registers a plain name, Chinese included", async () => {
    const res = await register({ client_name: "织布助手 Claude", redirect_uris: ["http://127.0.0.1:33418/callback"] });
    expect(res.status).toBe(201);
  });
});

describe("N1: a malformed form is the client's mistake", () => {
  const malformed = {
    "Content-Type": "multipart/form-data; boundary=xyz",
    Origin: ORIGIN,
  };
  it("answers a broken multipart sign-in or consent with 400, never a 500", async () => {
    for (const path of ["/oauth/sign-in", "/oauth/authorize"]) {
      const res = await send(path, {
        method: "POST",
        headers: malformed,
        body: "--xyz\r\nContent-Disposition: form-data\r\n\r\nx",
      });
      expect(res.status, path).toBe(400);
      expect(res.headers.get("Content-Type")).toContain("text/html");
    }
    const json = await send("/oauth/sign-in", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: ORIGIN },
      body: "{}",
    });
    expect(json.status).toBe(400);
  });
});
