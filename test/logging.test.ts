import { afterEach, describe, expect, it, vi } from "vitest";
import { redact, setLogLevel } from "../src/log.ts";
import { keys } from "./fixtures.ts";
import { call } from "./helpers.ts";

afterEach(() => {
  vi.restoreAllMocks();
  setLogLevel("warn");
});

function captureLogs(): () => string {
  const lines: string[] = [];
  for (const method of ["log", "warn", "error"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      lines.push(args.map(String).join(" "));
    });
  }
  return () => lines.join("\n");
}

describe("structured logs", () => {
  it("log each request as JSON with its request id and never the key", async () => {
    await call("/healthz");
    setLogLevel("info");
    const logs = captureLogs();
    const res = await call("/api/knowledge-bases", { key: keys.boss });
    const bad = await call("/api/knowledge-bases", { key: "wft_secret-that-must-not-leak" });
    expect(bad.status).toBe(401);
    const text = logs();
    expect(text).not.toContain(keys.boss);
    expect(text).not.toContain("wft_secret-that-must-not-leak");
    const line = text
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.request_id === res.headers.get("X-Request-Id"));
    expect(line).toMatchObject({
      level: "info",
      event: "request",
      method: "GET",
      path: "/api/knowledge-bases",
      status: 200,
      tenant_id: "t-jinxiu",
    });
  });

  it("redact fields whose names suggest credentials, at any depth", () => {
    expect(redact({ authorization: "Bearer x", nested: { api_key: "k", token: "t", fine: 1 } })).toEqual({
      authorization: "[redacted]",
      nested: { api_key: "[redacted]", token: "[redacted]", fine: 1 },
    });
  });
});
