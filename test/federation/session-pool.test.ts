import { describe, expect, it } from "vitest";
import { SessionPool, sessionKey } from "../../src/federation/session-pool.ts";

const session = (sessionId: string) => ({ sessionId, protocolVersion: "2025-06-18" });
const scope = { tenantId: "t-1", serverId: "srv-1", caller: "u-1" };
const reach = { url: "https://tools.example.com/mcp", headers: { "X-Api-Key": "secret-1" }, token: undefined };

describe("the pool of idle sessions", () => {
  it("hands a session out once, most recent first, and never one idle past its time", () => {
    const pool = new SessionPool({ maxSessions: 10, maxPerKey: 4, idleMs: 1_000 });
    pool.give("k", session("old"), 0);
    pool.give("k", session("new"), 500);
    expect(pool.take("k", 900)).toEqual({ session: session("new"), stale: [] });
    // "old" has been idle 1 000 ms at 1 000: dropped rather than handed out, for the caller to end.
    expect(pool.take("k", 1_000)).toEqual({ session: undefined, stale: [session("old")] });
    expect(pool.size).toBe(0);
  });

  it("keeps at most so many sessions for one key and in all, dropping the least recently used key first", () => {
    const pool = new SessionPool({ maxSessions: 3, maxPerKey: 2, idleMs: 60_000 });
    expect(pool.give("a", session("a1"), 0)).toBe(true);
    expect(pool.give("a", session("a2"), 0)).toBe(true);
    expect(pool.give("a", session("a3"), 0)).toBe(false);
    pool.give("b", session("b1"), 1);
    pool.give("c", session("c1"), 2);
    expect(pool.size).toBe(3);
    expect(pool.take("a", 3).session?.sessionId).toBe("a2");
    expect(pool.take("a", 3).session).toBeUndefined();
    expect(pool.take("b", 3).session?.sessionId).toBe("b1");
  });

  it("holds no session id a server could use to fill the isolate's memory or that is not visible ASCII", () => {
    const pool = new SessionPool({ maxSessions: 10, maxPerKey: 4, idleMs: 60_000 });
    for (const odd of ["x".repeat(1_025), "has space", "tab\there", "é-accent", ""]) {
      expect(pool.give("k", session(odd), 0)).toBe(false);
    }
    expect(pool.size).toBe(0);
    expect(pool.give("k", session("x".repeat(1_024)), 0)).toBe(true);
    expect(pool.give("k", session("a1b2-C3_d4.e5~f6!"), 0)).toBe(true);
  });

  it("keys sessions by workshop, server, caller, URL, header values and token", async () => {
    const base = await sessionKey(scope, reach);
    expect(await sessionKey(scope, { ...reach, headers: { "x-api-key": "secret-1" } })).toBe(base);
    const others = await Promise.all([
      sessionKey({ ...scope, tenantId: "t-2" }, reach),
      sessionKey({ ...scope, serverId: "srv-2" }, reach),
      sessionKey({ ...scope, caller: "u-2" }, reach),
      sessionKey({ ...scope, caller: null }, reach),
      sessionKey(scope, { ...reach, url: "https://tools.example.com/mcp?v=2" }),
      sessionKey(scope, { ...reach, headers: { "X-Api-Key": "secret-2" } }),
      sessionKey(scope, { ...reach, token: "token-1" }),
    ]);
    expect(new Set([base, ...others]).size).toBe(8);
    expect(base).not.toContain("secret-1");
  });
});
