import { env, listDurableObjectIds, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AuthLimiter } from "../../src/auth/auth-limiter.ts";
import { FAILED_AUTH_LIMITS } from "../../src/auth/failed-auth.ts";
import { keys as devKeys } from "../fixtures.ts";
import { call } from "../helpers.ts";

const from = (address: string, key: string) => call("/api/knowledge-bases", { key, headers: { "CF-Connecting-IP": address } });

describe("failed authentication limits", () => {
  it("answers 429 with Retry-After once an address passes its limit, then refuses it even a good key", async () => {
    const address = "203.0.113.7";
    const { limit, windowSeconds } = FAILED_AUTH_LIMITS.address;
    for (let i = 0; i < limit; i++) expect((await from(address, `wrong-${i}-${crypto.randomUUID()}`)).status).toBe(401);
    const limited = await from(address, `wrong-${crypto.randomUUID()}`);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
    const body = await limited.json<{ error: { code: string; message: string } }>();
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.message).toMatch(/try again in \d+ s/);

    expect((await from(address, devKeys.staff)).status).toBe(429);
    expect((await from("203.0.113.8", devKeys.staff)).status).toBe(200);
    expect((await from("203.0.113.8", "wrong")).status).toBe(401);
  });

  it("counts a malformed Authorization header as a failure of the address", async () => {
    const address = "198.51.100.20";
    for (let i = 0; i < FAILED_AUTH_LIMITS.address.limit; i++) {
      const res = await call("/mcp", {
        method: "POST",
        body: "{}",
        headers: { "CF-Connecting-IP": address, Authorization: "Basic x" },
      });
      expect(res.status).toBe(401);
    }
    const res = await call("/mcp", {
      method: "POST",
      body: "{}",
      headers: { "CF-Connecting-IP": address, Authorization: "Basic x" },
    });
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
  });

  it("answers 429 to a key prefix repeated from many addresses, without locking out the prefix's real key", async () => {
    const created = await (
      await call("/api/keys", { method: "POST", key: devKeys.staff, body: JSON.stringify({ name: "target" }) })
    ).json<{ key: string; prefix: string }>();
    const wrong = `${created.prefix}${"x".repeat(created.key.length - created.prefix.length)}`;
    const { limit } = FAILED_AUTH_LIMITS.keyPrefix;
    for (let i = 0; i < limit; i++) expect((await from(`192.0.2.${i + 1}`, wrong)).status).toBe(401);
    expect((await from("192.0.2.200", wrong)).status).toBe(429);
    expect((await from("192.0.2.201", created.key)).status).toBe(200);
  });

  it("does not call the limiter for requests with a good key", async () => {
    const before = (await listDurableObjectIds(env.AUTH_LIMITER)).length;
    for (let i = 0; i < 5; i++) expect((await from("203.0.113.99", devKeys.boss)).status).toBe(200);
    expect((await listDurableObjectIds(env.AUTH_LIMITER)).length).toBe(before);
    expect((await from("203.0.113.99", "wrong-key-here")).status).toBe(401);
    expect((await listDurableObjectIds(env.AUTH_LIMITER)).length).toBe(before + 2);
  });
});

describe("the AuthLimiter object", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("blocks past the limit within a window and starts counting afresh in the next", async () => {
    const stub = env.AUTH_LIMITER.get(env.AUTH_LIMITER.idFromName("test:window"));
    const rule = { limit: 2, windowSeconds: 60 };
    await runInDurableObject(stub, async (limiter: AuthLimiter) => {
      const start = Date.now();
      vi.spyOn(Date, "now").mockReturnValue(start);
      expect(await limiter.recordFailure(rule)).toEqual({ blocked: false, retryAfterSeconds: 60 });
      expect((await limiter.recordFailure(rule)).blocked).toBe(false);
      vi.spyOn(Date, "now").mockReturnValue(start + 45_000);
      expect(await limiter.recordFailure(rule)).toEqual({ blocked: true, retryAfterSeconds: 15 });
      vi.spyOn(Date, "now").mockReturnValue(start + 60_000);
      expect(await limiter.recordFailure(rule)).toEqual({ blocked: false, retryAfterSeconds: 60 });
    });
  });
});
