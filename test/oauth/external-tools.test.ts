import { beforeAll, describe, expect, it, vi } from "vitest";
import { installFakeNetwork, UPSTREAM } from "../federation/fake-upstream.ts";
import { keys, logins } from "../fixtures.ts";
import { call } from "../helpers.ts";
import { mcpCall, tokensFor } from "./browser.ts";

beforeAll(() => {
  installFakeNetwork();
  vi.spyOn(console, "warn").mockImplementation(() => {});
});

async function toolNames(token: string): Promise<string[]> {
  const { status, body } = await mcpCall(token, "tools/list");
  expect(status).toBe(200);
  return body.result.tools.map((t: { name: string }) => t.name);
}

describe("a workshop's external tools over OAuth", () => {
  it("reach a token allowed to prepare writes, and never a read-only one", async () => {
    const res = await call("/api/mcp/servers", {
      method: "POST",
      key: keys.boss,
      body: JSON.stringify({ name: "shown", url: UPSTREAM, expose_on_mcp: true }),
    });
    expect(res.status).toBe(201);
    const writer = await tokensFor({ ...logins.boss, access: "write" });
    expect(await toolNames(writer.tokens.access_token)).toContain("mcp_shown_echo");
    const reader = await tokensFor({ ...logins.boss, access: "read" });
    const names = await toolNames(reader.tokens.access_token);
    expect(names).toContain("query_orders");
    expect(names.some((n) => n.startsWith("mcp_"))).toBe(false);
  });
});
