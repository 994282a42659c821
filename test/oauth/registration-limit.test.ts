import { env, runInDurableObject } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { addressSubject, limitRegistration, REGISTRATION_LIMITS } from "../../src/auth/registration-limit.ts";
import { REDIRECT_URI, send } from "./browser.ts";

/** A Dynamic Client Registration from `address`, as Cloudflare's edge names it. */
const register = (address: string, origin?: string) =>
  send("/oauth/register", {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": address, ...(origin ? { Origin: origin } : {}) },
    body: JSON.stringify({ client_name: "Flood", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" }),
  });

/** Small limits, so a test can reach them: two per address, five from everyone. */
const SMALL = { address: { limit: 2, windowSeconds: 3600 }, everyone: { limit: 5, windowSeconds: 3600 } };
const attempt = (address: string | undefined) =>
  limitRegistration({ limiters: env.AUTH_LIMITER, address, origin: null, limits: SMALL });

// Each test starts with nobody's registrations counted.
beforeEach(async () => {
  const counted = ["register:everyone", "register:203.0.113.77", "register:198.51.100.1", "register:2001:db8:1:2::/64"];
  for (const name of counted) {
    await runInDurableObject(env.AUTH_LIMITER.get(env.AUTH_LIMITER.idFromName(name)), (_, state) => state.storage.deleteAll());
  }
});

describe("dynamic client registration limits", () => {
  it("answers 429 with Retry-After once an address passes its limit, and still registers other addresses' clients", async () => {
    const address = "203.0.113.77";
    const { limit, windowSeconds } = REGISTRATION_LIMITS.address;
    for (let i = 0; i < limit; i++) expect((await register(address)).status).toBe(201);
    const refused = await register(address, "https://inspector.example");
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
    expect(await refused.json()).toEqual({
      error: "temporarily_unavailable",
      error_description: `Too many client registrations; try again in ${retryAfter} s.`,
    });
    // A browser client can read why, as it reads the library's own answers.
    expect(refused.headers.get("Access-Control-Allow-Origin")).toBe("https://inspector.example");
    expect(refused.headers.get("Access-Control-Expose-Headers")).toContain("Retry-After");

    expect((await register("203.0.113.78")).status).toBe(201);
  });

  it("lets one address hammering use only its own share: the shared ceiling stays open to everyone else", async () => {
    for (let i = 0; i < 50; i++) await attempt("198.51.100.1");
    expect(await attempt("198.51.100.1")).not.toBeNull();
    // Only the address's two allowed registrations counted against everyone's five.
    for (const other of ["198.51.100.2", "198.51.100.3", "198.51.100.4"]) expect(await attempt(other), other).toBeNull();
  });

  it("holds registrations from many addresses, each within its own limit, to the shared ceiling", async () => {
    const answers = [];
    for (let i = 10; i < 17; i++) answers.push(await attempt(`192.0.2.${i}`));
    expect(answers.map((a) => a?.status ?? 201)).toEqual([201, 201, 201, 201, 201, 429, 429]);
  });

  it("counts an IPv6 client by its /64, which one host usually holds whole", async () => {
    expect(addressSubject("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(addressSubject("2001:DB8:1:2::9")).toBe("2001:db8:1:2::/64");
    expect(addressSubject("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressSubject("203.0.113.5")).toBe("203.0.113.5");
    expect(await attempt("2001:db8:1:2::1")).toBeNull();
    expect(await attempt("2001:db8:1:2:ffff::2")).toBeNull();
    expect((await attempt("2001:db8:1:2:abcd::3"))?.status).toBe(429);
  });

  it("counts only the shared ceiling when no address is known", async () => {
    for (let i = 0; i < 5; i++) expect(await attempt(undefined)).toBeNull();
    expect((await attempt(undefined))?.status).toBe(429);
  });
});
