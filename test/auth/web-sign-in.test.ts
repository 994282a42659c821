import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "../../src/auth/passwords.ts";
import { browserCall, ORIGIN, signIn } from "../chat/sign-in.ts";
import { keys as devKeys } from "../fixtures.ts";
import { call } from "../helpers.ts";

function login(username: string, password: string, address = crypto.randomUUID(), origin: string | null = ORIGIN) {
  return call("/api/auth/login", {
    method: "POST",
    headers: { "CF-Connecting-IP": address, ...(origin ? { Origin: origin } : {}) },
    body: JSON.stringify({ username, password }),
  });
}

describe("password hashes", () => {
  it("verify the password they were made from and nothing else", async () => {
    const stored = await hashPassword("boss123");
    expect(stored).toMatch(/^pbkdf2-sha256\$100000\$/);
    expect(await verifyPassword("boss123", stored)).toBe(true);
    expect(await verifyPassword("boss124", stored)).toBe(false);
    expect(await verifyPassword("boss123", "pbkdf2-sha256$100000$!!$??")).toBe(false);
    expect(await hashPassword("boss123")).not.toBe(stored);
  });
});

describe("web sign-in", () => {
  it("signs the demo boss in with a session cookie and says who they are", async () => {
    const res = await login("boss", "boss123");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      user: { id: "u-boss", name: "王老板", role: "boss", tenant_id: "t-jinxiu", tenant_name: "锦绣制衣" },
    });
    const cookie = res.headers.get("Set-Cookie") ?? "";
    expect(cookie).toMatch(/^weft_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/Path=\//);
    const me = await browserCall("/api/auth/me", cookie.split(";")[0] as string);
    expect(await me.json()).toMatchObject({ user: { id: "u-boss", tenant_name: "锦绣制衣" } });
  });

  it("signs every demo user in to their own workshop", async () => {
    const expected = [
      ["staff", "staff123", "李娟", "staff", "锦绣制衣"],
      ["staff2", "staff123", "张敏", "staff", "锦绣制衣"],
      ["admin", "admin123", "平台管理员", "admin", "锦绣制衣"],
      ["otherboss", "boss123", "陈老板", "boss", "华美服饰"],
    ];
    for (const [username, password, name, role, tenant_name] of expected) {
      const res = await login(username as string, password as string);
      expect(await res.json()).toMatchObject({ user: { name, role, tenant_name } });
    }
  });

  it("leaves Secure off the cookie on localhost, where the dev server runs over http", async () => {
    const res = await exports.default.fetch(
      new Request("http://localhost:8787/api/auth/login", {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: "http://localhost:8787" },
        body: JSON.stringify({ username: "staff", password: "staff123" }),
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("Set-Cookie")).not.toMatch(/Secure/);
  });

  it("refuses a wrong password and an unknown username alike with 401", async () => {
    const wrong = await login("boss", "nope");
    const unknown = await login("nobody", "boss123");
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect((await wrong.json<{ error: { message: string } }>()).error.message).toBe(
      (await unknown.json<{ error: { message: string } }>()).error.message,
    );
    expect(wrong.headers.get("Set-Cookie")).toBeNull();
  });

  it("refuses malformed sign-ins with 400 and a sign-in posted from another site with 403", async () => {
    const missing = await call("/api/auth/login", { method: "POST", body: JSON.stringify({ username: "boss" }) });
    expect(missing.status).toBe(400);
    const extra = await call("/api/auth/login", {
      method: "POST",
      body: JSON.stringify({ username: "boss", password: "boss123", role: "admin" }),
    });
    expect(extra.status).toBe(400);
    expect((await login("boss", "boss123", undefined, "https://evil.example")).status).toBe(403);
  });

  it("rate limits failed sign-ins per username from one address, even with the right password, and says when to retry", async () => {
    const guesser = "192.0.2.44";
    for (let i = 0; i < 5; i++) expect((await login("staff2", `wrong-${i}`, guesser)).status).toBe(401);
    const limited = await login("staff2", "staff123", guesser);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect((await limited.json<{ error: { code: string } }>()).error.code).toBe("rate_limited");
    // Neither another account nor the account's owner elsewhere is locked out by one guesser.
    expect((await login("staff", "staff123", guesser)).status).toBe(200);
    expect((await login("staff2", "staff123", "192.0.2.45")).status).toBe(200);
  });

  it("keeps a username that looks like another's name and address from using up that person's count there", async () => {
    const owner = "192.0.2.60";
    for (let i = 0; i < 6; i++) await login(`staff@${owner}`, `wrong-${i}`);
    expect((await login("staff", "staff123", owner)).status).toBe(200);
  });

  it("caps guesses at one username spread over many addresses", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 51; i++) statuses.push((await login("staff2", `wrong-${i}`)).status);
    expect(statuses.slice(0, 50).every((s) => s === 401)).toBe(true);
    expect(statuses[50]).toBe(429);
    expect((await login("staff2", "staff123")).status).toBe(429);
  }, 60_000);

  it("rate limits one address guessing across usernames, and counts concurrent guesses truly", async () => {
    const address = "203.0.113.9";
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => login(`guess${i}`, "x", address)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
  });

  it("counts only failures against an address: people behind one router sign in all day", async () => {
    const address = "198.51.100.7";
    for (let i = 0; i < 21; i++) expect((await login("staff", "staff123", address)).status).toBe(200);
    for (let i = 0; i < 19; i++) expect((await login(`router-${i}`, "x", address)).status).toBe(401);
    expect((await login("router-x", "x", address)).status).toBe(401);
    expect((await login("router-y", "x", address)).status).toBe(429);
  }, 60_000);

  it("resets a username's count after a successful sign-in", async () => {
    for (let i = 0; i < 4; i++) await login("admin", "wrong");
    expect((await login("admin", "admin123")).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login("admin", "wrong")).status).toBe(401);
    expect((await login("admin", "admin123")).status).toBe(200);
  });

  it("ends the session server-side on sign-out, so the same cookie no longer works", async () => {
    const cookie = await signIn("boss", "boss123");
    expect((await browserCall("/api/auth/me", cookie)).status).toBe(200);
    const out = await browserCall("/api/auth/logout", cookie, { method: "POST" });
    expect(out.status).toBe(200);
    expect(out.headers.get("Set-Cookie")).toMatch(/weft_session=;/);
    expect((await browserCall("/api/auth/me", cookie)).status).toBe(401);
    expect((await browserCall("/api/knowledge-bases", cookie)).status).toBe(401);
  });

  it("answers 401 to /me without a session, and to a made-up cookie", async () => {
    expect((await call("/api/auth/me")).status).toBe(401);
    expect((await browserCall("/api/auth/me", "weft_session=forged")).status).toBe(401);
  });
});

describe("the session cookie on /api routes", () => {
  it("authenticates reads like an API key does, scoped to the user's workshop", async () => {
    const cookie = await signIn("otherboss", "boss123");
    const res = await browserCall("/api/knowledge-bases", cookie);
    expect(res.status).toBe(200);
    const me = await browserCall("/api/auth/me", cookie);
    expect(await me.json()).toMatchObject({ user: { tenant_id: "t-other" } });
  });

  it("checks Origin on state-changing requests: missing or foreign is 403, the app's own passes", async () => {
    const cookie = await signIn("boss", "boss123");
    const body = JSON.stringify({ name: "cookie kb" });
    const noOrigin = await call("/api/knowledge-bases", { method: "POST", headers: { Cookie: cookie }, body });
    expect(noOrigin.status).toBe(403);
    const foreign = await browserCall("/api/knowledge-bases", cookie, {
      method: "POST",
      headers: { Origin: "https://evil.example" },
      body,
    });
    expect(foreign.status).toBe(403);
    const own = await browserCall("/api/knowledge-bases", cookie, { method: "POST", body });
    expect(own.status).toBe(201);
  });

  it("keeps roles: a staff member's cookie cannot do what needs a boss", async () => {
    const cookie = await signIn("staff", "staff123");
    const res = await browserCall("/api/knowledge-bases", cookie, { method: "POST", body: JSON.stringify({ name: "x" }) });
    expect(res.status).toBe(403);
  });

  it("is not accepted outside /api, where agents authenticate with keys", async () => {
    const cookie = await signIn("boss", "boss123");
    const res = await call("/mcp", {
      method: "POST",
      headers: { Cookie: cookie, Origin: ORIGIN, Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(401);
  });

  it("gives way to an Authorization header, which wins when both are sent", async () => {
    const cookie = await signIn("boss", "boss123");
    const res = await call("/api/auth/me", { headers: { Cookie: cookie }, key: devKeys.otherBoss });
    expect(await res.json()).toMatchObject({ user: { id: "u-other-boss" } });
  });
});
