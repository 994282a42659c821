import { describe, expect, it } from "vitest";
import { keys, logins } from "../fixtures.ts";
import { mcpCall, send, tokenRequest, tokensFor } from "./browser.ts";

const people = logins;

interface Listed {
  id: string;
  user_id: string;
  client_name: string;
  access: string;
}

async function connections(key: string): Promise<Listed[]> {
  const res = await send("/api/oauth/connections", { headers: { Authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return (await res.json<{ connections: Listed[] }>()).connections;
}

function revoke(key: string, id: string): Promise<Response> {
  return send(`/api/oauth/connections/${id}`, { method: "DELETE", headers: { Authorization: `Bearer ${key}` } });
}

async function toolNames(token: string): Promise<string[]> {
  const { status, body } = await mcpCall(token, "tools/list");
  expect(status).toBe(200);
  return body.result.tools.map((t: { name: string }) => t.name);
}

async function callTool(token: string, name: string, args: Record<string, unknown>) {
  const { body } = await mcpCall(token, "tools/call", { name, arguments: args });
  return body.result as { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, unknown> };
}

/** A call of a tool the caller is not given: the server knows no such tool for them. */
async function expectUnknownTool(token: string, name: string) {
  const { body } = await mcpCall(token, "tools/call", { name, arguments: {} });
  expect(body.error?.message).toContain(`Unknown tool '${name}'`);
}

describe("connected clients", () => {
  it("lists a person's clients with what they allowed, and a revocation holds from the next request", async () => {
    const { clientId, tokens } = await tokensFor({ ...people.boss, access: "write" });
    expect(await toolNames(tokens.access_token)).toContain("prepare_order");
    const mine = (await connections(keys.boss)).filter((c) => c.client_name === "Raw Client");
    expect(mine.at(-1)).toMatchObject({ user_id: "u-boss", access: "write" });
    const id = mine[0]!.id;
    expect((await revoke(keys.boss, id)).status).toBe(200);
    const after = await mcpCall(tokens.access_token, "tools/list");
    expect(after.status).toBe(401);
    expect(after.headers.get("WWW-Authenticate")).toContain("resource_metadata=");
    const refreshed = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    });
    expect(refreshed.status).toBe(400);
    expect((await connections(keys.boss)).map((c) => c.id)).not.toContain(id);
  });

  it("lets an admin see and revoke their workshop's connections, and nobody another's", async () => {
    const { tokens } = await tokensFor(people.staff);
    const { tokens: otherTokens } = await tokensFor(people.otherBoss);
    const staffConnection = (await connections(keys.staff))[0]!;
    expect(staffConnection.user_id).toBe("u-staff");
    const seenByAdmin = await connections(keys.admin);
    expect(seenByAdmin.map((c) => c.id)).toContain(staffConnection.id);
    expect(seenByAdmin.every((c) => c.user_id !== "u-other-boss")).toBe(true);
    // A boss is no admin: the staff member's connection is not theirs to see or end.
    expect((await connections(keys.boss)).map((c) => c.id)).not.toContain(staffConnection.id);
    expect((await revoke(keys.boss, staffConnection.id)).status).toBe(404);
    const otherConnection = (await connections(keys.otherBoss))[0]!;
    expect((await revoke(keys.admin, otherConnection.id)).status).toBe(404);
    expect((await mcpCall(otherTokens.access_token, "tools/list")).status).toBe(200);
    expect((await revoke(keys.admin, staffConnection.id)).status).toBe(200);
    expect((await mcpCall(tokens.access_token, "tools/list")).status).toBe(401);
  });

  it("gives a staff token the staff's tools only, whatever access was allowed", async () => {
    const { tokens } = await tokensFor({ ...people.staff, access: "write" });
    const names = await toolNames(tokens.access_token);
    expect(names).toContain("prepare_piece_record");
    expect(names).not.toContain("prepare_order");
    await expectUnknownTool(tokens.access_token, "prepare_order");
  });

  it("shows a token of one workshop nothing of another", async () => {
    const { tokens } = await tokensFor({ ...people.otherBoss, access: "write" });
    const order = await callTool(tokens.access_token, "query_orders", { order: "o-jx-1" });
    expect(order.isError).toBe(true);
    expect(order.content[0]!.text).toMatch(/^unknown_name/);
    const employees = await callTool(tokens.access_token, "query_employees", {});
    const listed = (employees.structuredContent?.employees ?? []) as { id: string }[];
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((e) => e.id.startsWith("e-hm-"))).toBe(true);
  });

  it("keeps a read-only token to read-only tools", async () => {
    const { tokens } = await tokensFor({ ...people.boss, access: "read" });
    expect(tokens.scope).toBe("weft:read");
    const names = await toolNames(tokens.access_token);
    expect(names).toContain("query_orders");
    expect(names).not.toContain("prepare_order");
    expect(names).not.toContain("confirm_action");
    await expectUnknownTool(tokens.access_token, "prepare_order");
  });
});
