import { describe, expect, it } from "vitest";
import { REGISTRATION_LIMITS, registrationSubjects } from "../../src/auth/registration-limit.ts";
import { REDIRECT_URI, send } from "./browser.ts";

/** A Dynamic Client Registration from `address`, as Cloudflare's edge names it. */
const register = (address: string, origin?: string) =>
  send("/oauth/register", {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": address, ...(origin ? { Origin: origin } : {}) },
    body: JSON.stringify({ client_name: "Flood", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" }),
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

  it("counts every registration against everyone's limit too, and only that one when no address is known", () => {
    expect(registrationSubjects("198.51.100.9")).toEqual([
      { name: "register:198.51.100.9", rule: REGISTRATION_LIMITS.address },
      { name: "register:everyone", rule: REGISTRATION_LIMITS.everyone },
    ]);
    expect(registrationSubjects(undefined)).toEqual([{ name: "register:everyone", rule: REGISTRATION_LIMITS.everyone }]);
  });
});
