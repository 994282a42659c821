import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SESSION_IDLE_MS } from "../../src/federation/session-pool.ts";
import { keys as devKeys } from "../fixtures.ts";
import { type call, callJson } from "../helpers.ts";
import { installFakeNetwork, openSessions, receivedMethods, SESSIONS, sessionServer, UPSTREAM } from "./fake-upstream.ts";

beforeAll(() => {
  installFakeNetwork();
  vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => {
  sessionServer.requests.length = 0;
  sessionServer.mostInFlight = 0;
  sessionServer.unknownSessionStatus = 404;
  sessionServer.newSessionId = () => crypto.randomUUID();
  receivedMethods.length = 0;
});

const json = (path: string, init: Parameters<typeof call>[1] = {}) => callJson(path, { key: devKeys.boss, ...init });

async function register(name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await json("/api/mcp/servers", { method: "POST", body: JSON.stringify({ name, url: SESSIONS, ...extra }) });
  expect(created.status, created.text).toBe(201);
  return created.body.id;
}

function echo(id: string, message: string, { key = devKeys.boss, tool = "echo" } = {}) {
  return json(`/api/mcp/proxy/${id}/tools/${tool}/call`, { method: "POST", key, body: JSON.stringify({ message }) });
}

/** The JSON-RPC methods the stateful server received, in order (`DELETE` and `GET` by their HTTP method). */
const methods = () => sessionServer.requests.map((r) => r.rpc ?? r.method);
const posts = () => sessionServer.requests.filter((r) => r.method === "POST");
const initializes = () => posts().filter((r) => r.rpc === "initialize").length;

describe("sessions with external MCP servers", () => {
  it("sends one request for a second call to a stateful server, on the session the first call opened", async () => {
    const id = await register("reused");
    expect((await echo(id, "one")).body.text).toBe("echo: one");
    expect(methods()).toContain("initialize");
    expect(methods()).not.toContain("DELETE");
    const opened = posts().find((r) => r.rpc === "tools/call")?.sessionId;
    expect(opened).toBeTruthy();
    expect(openSessions.has(opened as string)).toBe(true);

    sessionServer.requests.length = 0;
    const second = await echo(id, "two");
    expect(second.status, second.text).toBe(200);
    expect(second.body.text).toBe("echo: two");
    expect(sessionServer.requests).toEqual([{ method: "POST", rpc: "tools/call", sessionId: opened, status: 200 }]);
  });

  it("starts a new session when the server has forgotten its own (404), and runs the call once", async () => {
    const id = await register("forgotten");
    await echo(id, "one");
    const old = posts().find((r) => r.rpc === "tools/call")?.sessionId;
    openSessions.clear();
    sessionServer.requests.length = 0;

    const again = await echo(id, "two");
    expect(again.status, again.text).toBe(200);
    expect(again.body.text).toBe("echo: two");
    const calls = posts().filter((r) => r.rpc === "tools/call");
    expect(calls.map((r) => r.status)).toEqual([404, 200]);
    expect(calls[0]?.sessionId).toBe(old);
    expect(calls[1]?.sessionId).not.toBe(old);
    expect(initializes()).toBe(1);
    // The forgotten session is not ended: the server said it no longer exists.
    expect(sessionServer.requests.some((r) => r.method === "DELETE")).toBe(false);

    // The new session is the one kept.
    sessionServer.requests.length = 0;
    expect((await echo(id, "three")).body.text).toBe("echo: three");
    expect(sessionServer.requests).toEqual([{ method: "POST", rpc: "tools/call", sessionId: calls[1]?.sessionId, status: 200 }]);
  });

  it("starts a new session too when a server answers a forgotten one with 400, as the SDK's example servers do", async () => {
    const id = await register("forgotten400");
    await echo(id, "one");
    openSessions.clear();
    sessionServer.unknownSessionStatus = 400;
    sessionServer.requests.length = 0;
    const again = await echo(id, "two");
    expect(again.status, again.text).toBe(200);
    expect(
      posts()
        .filter((r) => r.rpc === "tools/call")
        .map((r) => r.status),
    ).toEqual([400, 200]);
  });

  it("fails a call as before when the server fails a resumed session otherwise, and starts afresh the next time", async () => {
    const id = await register("timing-out");
    await echo(id, "one");
    sessionServer.requests.length = 0;
    // `hang` never answers: the call times out (MCP_CALL_TIMEOUT_MS is 1500 in tests), once, with no second try.
    const hung = await json(`/api/mcp/proxy/${id}/tools/hang/call`, { method: "POST", body: "{}" });
    expect(hung.status).toBe(502);
    expect(hung.body.error.details).toMatchObject({ is_upstream: true, retryable: true });
    expect(posts().filter((r) => r.rpc === "tools/call")).toHaveLength(1);
    // A session that failed is not kept but ended, as every session was before sessions were reused.
    expect(methods()).toContain("DELETE");
    sessionServer.requests.length = 0;
    expect((await echo(id, "two")).status).toBe(200);
    expect(initializes()).toBe(1);
  });

  it("never sends a call again when only the ending of its failed session meets a 404", async () => {
    const id = await register("forgets-while-hanging");
    await echo(id, "one");
    sessionServer.requests.length = 0;
    const hung = json(`/api/mcp/proxy/${id}/tools/hang/call`, { method: "POST", body: "{}" });
    // While `hang` runs, the server forgets the session: the DELETE after the timeout meets a 404.
    await new Promise((resolve) => setTimeout(resolve, 300));
    openSessions.clear();
    expect((await hung).status).toBe(502);
    // The SDK tells the server the call was given up and the session is ended (in either order):
    // both find it gone, and neither sends the call again.
    const seen = sessionServer.requests.map((r) => `${r.rpc ?? r.method} ${r.status}`);
    expect(seen[0]).toBe("tools/call 0");
    expect(seen.slice(1).sort()).toEqual(["DELETE 404", "notifications/cancelled 404"]);
  });

  it("opens a new session after the last one sat idle too long, and ends the old one beside the call", async () => {
    const id = await register("idle");
    await echo(id, "one");
    const old = posts().find((r) => r.rpc === "tools/call")?.sessionId as string;
    sessionServer.requests.length = 0;
    const later = Date.now() + SESSION_IDLE_MS + 1_000;
    const clock = vi.spyOn(Date, "now").mockImplementation(() => later);
    try {
      expect((await echo(id, "two")).body.text).toBe("echo: two");
    } finally {
      clock.mockRestore();
    }
    expect(initializes()).toBe(1);
    expect(posts().find((r) => r.rpc === "tools/call")?.sessionId).not.toBe(old);
    await vi.waitFor(() =>
      expect(sessionServer.requests).toContainEqual({ method: "DELETE", rpc: null, sessionId: old, status: 200 }),
    );
    expect(openSessions.has(old)).toBe(false);
  });

  it("keeps no session whose id is huge or not visible ASCII, and ends it instead", async () => {
    const id = await register("odd-ids");
    for (const odd of ["s".repeat(50_000), "has a space", "tab\there"]) {
      sessionServer.newSessionId = () => `${odd}-${crypto.randomUUID()}`;
      sessionServer.requests.length = 0;
      expect((await echo(id, "one")).body.text).toBe("echo: one");
      const opened = posts().find((r) => r.rpc === "tools/call")?.sessionId as string;
      expect(opened.startsWith(odd)).toBe(true);
      // Ended as a session not kept is, and the next call opens its own.
      expect(sessionServer.requests).toContainEqual({ method: "DELETE", rpc: null, sessionId: opened, status: 200 });
      sessionServer.requests.length = 0;
      expect((await echo(id, "two")).body.text).toBe("echo: two");
      expect(initializes()).toBe(1);
    }
  });

  it("keeps the handshake per call for a server that gives no session id", async () => {
    const created = await json("/api/mcp/servers", {
      method: "POST",
      body: JSON.stringify({ name: "stateless", url: UPSTREAM }),
    });
    const id = created.body.id;
    for (const message of ["one", "two"]) expect((await echo(id, message)).body.text).toBe(`echo: ${message}`);
    // One list of tools, then two calls: each contact with its own handshake.
    expect(receivedMethods.filter((m) => m === "initialize")).toHaveLength(3);
    expect(receivedMethods.filter((m) => m === "tools/call")).toHaveLength(2);
  });

  it("gives two calls made side by side a session each, and both the right answer", async () => {
    const id = await register("side-by-side");
    await echo(id, "warm", { tool: "slow_echo" });
    sessionServer.requests.length = 0;
    const [a, b] = await Promise.all([echo(id, "a", { tool: "slow_echo" }), echo(id, "b", { tool: "slow_echo" })]);
    expect([a.body.text, b.body.text]).toEqual(["slow echo: a", "slow echo: b"]);
    // One reused the kept session, the other opened its own: no session carried two requests at once.
    expect(initializes()).toBe(1);
    expect(sessionServer.mostInFlight).toBe(1);
    // Both are kept: two more side by side need no handshake.
    sessionServer.requests.length = 0;
    const [c, d] = await Promise.all([echo(id, "c", { tool: "slow_echo" }), echo(id, "d", { tool: "slow_echo" })]);
    expect([c.body.text, d.body.text]).toEqual(["slow echo: c", "slow echo: d"]);
    expect(initializes()).toBe(0);
    expect(new Set(posts().map((r) => r.sessionId)).size).toBe(2);
    expect(sessionServer.mostInFlight).toBe(1);
  });

  it("never reuses a session after the server's headers or URL change", async () => {
    const id = await register("changing-keys", { headers: { "X-Api-Key": "first-key-123" } });
    await echo(id, "one");
    const before = new Set(sessionServer.issued);

    const patched = await json(`/api/mcp/servers/${id}`, {
      method: "PATCH",
      body: JSON.stringify({ headers: { "X-Api-Key": "second-key-456" } }),
    });
    expect(patched.status, patched.text).toBe(200);
    sessionServer.requests.length = 0;
    expect((await echo(id, "two")).body.text).toBe("echo: two");
    expect(initializes()).toBeGreaterThan(0);
    expect(sessionServer.requests.filter((r) => r.sessionId && before.has(r.sessionId))).toEqual([]);

    const between = new Set(sessionServer.issued);
    const moved = await json(`/api/mcp/servers/${id}`, { method: "PATCH", body: JSON.stringify({ url: `${SESSIONS}?v=2` }) });
    expect(moved.status, moved.text).toBe(200);
    sessionServer.requests.length = 0;
    expect((await echo(id, "three")).body.text).toBe("echo: three");
    expect(initializes()).toBeGreaterThan(0);
    expect(sessionServer.requests.filter((r) => r.sessionId && between.has(r.sessionId))).toEqual([]);
  });

  it("keeps a session to the user it was opened for, and tool lists to a session of the workshop's own", async () => {
    const id = await register("per-user");
    // The proxy lists the server's tools first (nothing is cached yet), then calls.
    await echo(id, "boss");
    const listing = posts().find((r) => r.rpc === "tools/list")?.sessionId;
    const boss = posts().find((r) => r.rpc === "tools/call")?.sessionId;
    expect(listing).toBeTruthy();
    expect(boss).not.toBe(listing);

    sessionServer.requests.length = 0;
    // Staff may call this read-only tool: on a session of their own.
    expect((await echo(id, "staff", { key: devKeys.staff })).body.text).toBe("echo: staff");
    expect(initializes()).toBe(1);
    expect([listing, boss]).not.toContain(posts().find((r) => r.rpc === "tools/call")?.sessionId);

    sessionServer.requests.length = 0;
    const refreshed = await json(`/api/mcp/servers/${id}/refresh`, { method: "POST" });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(sessionServer.requests).toEqual([{ method: "POST", rpc: "tools/list", sessionId: listing, status: 200 }]);
  });

  it("never shows a session id in a response or a log line", async () => {
    const lines: string[] = [];
    for (const method of ["log", "warn", "error", "info", "debug"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        lines.push(args.map(String).join(" "));
      });
    }
    const id = await register("secretive");
    const answers: string[] = [];
    try {
      answers.push((await json(`/api/mcp/proxy/${id}/tools/my_session/call`, { method: "POST", body: "{}" })).text);
      answers.push((await json(`/api/mcp/proxy/${id}/tools/my_session/call`, { method: "POST", body: "{}" })).text);
      answers.push((await json(`/api/mcp/proxy/${id}/tools/session_fail/call`, { method: "POST", body: "{}" })).text);
      openSessions.clear();
      answers.push((await json(`/api/mcp/proxy/${id}/tools/my_session/call`, { method: "POST", body: "{}" })).text);
      answers.push((await json(`/api/mcp/servers/${id}`)).text);
    } finally {
      vi.restoreAllMocks();
      installFakeNetwork();
      vi.spyOn(console, "warn").mockImplementation(() => {});
    }
    expect(answers[0]).toContain("session [redacted]");
    expect(answers[2]).toContain("session [redacted] is broken");
    expect(sessionServer.issued.length).toBeGreaterThan(0);
    for (const sessionId of sessionServer.issued) {
      for (const answer of answers) expect(answer).not.toContain(sessionId);
      expect(lines.join("\n")).not.toContain(sessionId);
    }
  });
});
