import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { clientAddress } from "../../src/auth/client-address.ts";
import { FAILED_AUTH_LIMITS } from "../../src/auth/failed-auth.ts";
import { SIGN_IN_LIMITS } from "../../src/auth/sign-in-limiter.ts";
import app from "../../src/index.ts";
import { keys } from "../fixtures.ts";
import { BASE } from "../helpers.ts";

/** The Worker as `wrangler dev` runs it (wrangler.toml's top level): `CF-Connecting-IP` is not trusted. */
async function devCall(path: string, init: RequestInit): Promise<Response> {
  const devEnv = { ...env, TRUST_CLIENT_IP_HEADER: "false" } as Env;
  const ctx = createExecutionContext();
  // The request a client sends carries no `cf` of the edge: typed as the Worker receives requests.
  const request = new Request(`${BASE}${path}`, init) as Request<unknown, IncomingRequestCfProperties>;
  const res = await app.fetch(request, devEnv, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

const signIn = (username: string, address: string) =>
  devCall("/api/auth/login", {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": address },
    body: JSON.stringify({ username, password: "wrong-password" }),
  });

describe("which client address is believed", () => {
  it("reads CF-Connecting-IP only where the platform writes it", () => {
    expect(clientAddress({ header: "203.0.113.5", trusted: true })).toBe("203.0.113.5");
    expect(clientAddress({ header: " 203.0.113.5 ", trusted: true })).toBe("203.0.113.5");
    expect(clientAddress({ header: "203.0.113.5", trusted: false })).toBeUndefined();
    expect(clientAddress({ header: undefined, trusted: true })).toBeUndefined();
    expect(clientAddress({ header: "  ", trusted: true })).toBeUndefined();
  });

  it("does not let a client under wrangler dev dodge the sign-in limit by naming a new address each time", async () => {
    for (let i = 0; i < SIGN_IN_LIMITS.perUsernameAndAddress; i++) {
      expect((await signIn("rotating-guesser", `203.0.113.${i + 1}`)).status).toBe(401);
    }
    for (let i = 0; i < 6; i++) {
      const res = await signIn("rotating-guesser", `203.0.113.${100 + i}`);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    }
  });

  it("does not let a client under wrangler dev lock out an address it names", async () => {
    const victim = "198.51.100.9";
    const headers = (key: string) => ({ Authorization: `Bearer ${key}`, "CF-Connecting-IP": victim });
    for (let i = 0; i <= FAILED_AUTH_LIMITS.address.limit + 1; i++) {
      await devCall("/api/knowledge-bases", { headers: headers(`wrong-${i}-${crypto.randomUUID()}`) });
    }
    expect((await devCall("/api/knowledge-bases", { headers: headers(keys.staff) })).status).toBe(200);
  });
});
