import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { confirmAction, getAction, holdAction } from "../../src/actions/actions.ts";
import { configFor } from "../../src/config.ts";
import { servicesFor } from "../../src/services.ts";
import { dbOf, keys, onTheCard, testServices, users, workshopOf } from "../fixtures.ts";
import { call, callJson, mcpClient } from "../helpers.ts";
import { askingClient } from "../mcp/clients.ts";
import { CHANGING, calledTools, DOWN, installFakeNetwork, REDIRECTING, received, UPSTREAM } from "./fake-upstream.ts";

const SECRET = "sk-live-very-secret-token-123";

beforeAll(() => {
  installFakeNetwork();
  // Upstream failures are logged on purpose; the log test below reads them, the others need not print them.
  vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => {
  received.length = 0;
  calledTools.length = 0;
});

async function register(body: Record<string, unknown>, key = keys.boss) {
  const res = await call("/api/mcp/servers", { method: "POST", key, body: JSON.stringify(body) });
  // biome-ignore lint/suspicious/noExplicitAny: tests read JSON answers loosely; the assertions are the check
  return { res, body: (await res.json()) as Record<string, any> };
}

const json = callJson;

describe("the MCP server registry", () => {
  it("registers a server, keeps header values write-only and shows names and health", async () => {
    const { res, body } = await register({ name: "tools", url: UPSTREAM, headers: { Authorization: `Bearer ${SECRET}` } });
    expect(res.status).toBe(201);
    expect(body).toMatchObject({
      name: "tools",
      url: UPSTREAM,
      header_names: ["Authorization"],
      enabled: true,
      expose_on_mcp: false,
    });
    expect(JSON.stringify(body)).not.toContain(SECRET);
    const stored = await dbOf("t-jinxiu").prepare("SELECT * FROM mcp_servers WHERE id = ?").bind(body.id).first();
    expect(JSON.stringify(stored)).not.toContain(SECRET);

    const refreshed = await json(`/api/mcp/servers/${body.id}/refresh`, { method: "POST", key: keys.boss });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.tools.map((t: { name: string }) => t.name)).toEqual([
      "echo",
      "add_note",
      "fail",
      "whoami",
      "leaky_fail",
      "hang",
      "huge",
      "tree",
    ]);
    expect(refreshed.body.server.health).toMatchObject({ status: "ok", tool_count: 8 });
    expect(refreshed.text).not.toContain(SECRET);
    // The header went to the server, decrypted.
    expect(received.at(-1)?.headers.get("Authorization")).toBe(`Bearer ${SECRET}`);

    const list = await json("/api/mcp/servers", { key: keys.boss });
    expect(list.body.servers.map((s: { name: string }) => s.name)).toContain("tools");
    expect(list.text).not.toContain(SECRET);

    const tools = await json(`/api/mcp/servers/${body.id}/tools`, { key: keys.boss });
    expect(tools.body.fetched_at).toBeTruthy();
    expect(tools.body.tools.find((t: { name: string }) => t.name === "echo").annotations).toEqual({ readOnlyHint: true });
  });

  it("refuses hostile URLs, bad names, reserved headers and unknown fields with 400", async () => {
    for (const body of [
      { name: "a", url: "http://example.com/mcp" },
      { name: "a", url: "https://169.254.169.254/" },
      { name: "a", url: "https://[::ffff:127.0.0.1]/" },
      { name: "a", url: "https://user:pw@example.com/" },
      { name: "Bad Name", url: UPSTREAM },
      { name: "x".repeat(33), url: UPSTREAM },
      { name: "a", url: UPSTREAM, headers: { Host: "evil" } },
      { name: "a", url: UPSTREAM, headers: { "X-Key": "a\r\nInjected: yes" } },
      { name: "a", url: UPSTREAM, surprise: true },
    ]) {
      const { res, body: answer } = await register(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(answer.error.code).toMatch(/bad_request|unsafe_url/);
    }
  });

  it("lets only a boss or admin manage servers, and gives a duplicate name 409", async () => {
    expect((await register({ name: "staffs", url: UPSTREAM }, keys.staff)).res.status).toBe(403);
    expect((await register({ name: "dup", url: UPSTREAM })).res.status).toBe(201);
    expect((await register({ name: "dup", url: UPSTREAM }, keys.admin)).res.status).toBe(409);
  });

  it("shows another workshop nothing and lets it touch nothing", async () => {
    const { body } = await register({ name: "private", url: UPSTREAM, headers: { "X-Api-Key": SECRET } });
    const other = keys.otherBoss;
    expect((await json("/api/mcp/servers", { key: other })).body.servers).toEqual([]);
    for (const [method, path] of [
      ["GET", `/api/mcp/servers/${body.id}`],
      ["PATCH", `/api/mcp/servers/${body.id}`],
      ["DELETE", `/api/mcp/servers/${body.id}`],
      ["POST", `/api/mcp/servers/${body.id}/refresh`],
      ["GET", `/api/mcp/servers/${body.id}/tools`],
      ["GET", `/api/mcp/servers/${body.id}/tools/echo/function`],
      ["POST", `/api/mcp/proxy/${body.id}/tools/echo/call`],
    ] as const) {
      const res = await call(path, {
        method,
        key: other,
        ...(method === "GET" || method === "DELETE" ? {} : { body: JSON.stringify({ enabled: false }) }),
      });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect(received).toEqual([]);
  });

  it("updates settings, replaces headers and deletes", async () => {
    const { body } = await register({ name: "editable", url: UPSTREAM, headers: { "X-Api-Key": "old" } });
    const patched = await json(`/api/mcp/servers/${body.id}`, {
      method: "PATCH",
      key: keys.boss,
      body: JSON.stringify({ headers: { Authorization: "Bearer new" }, expose_on_mcp: true }),
    });
    expect(patched.body).toMatchObject({ header_names: ["Authorization"], expose_on_mcp: true });
    expect(
      (
        await call(`/api/mcp/servers/${body.id}`, {
          method: "PATCH",
          key: keys.boss,
          body: JSON.stringify({ url: "https://10.1.1.1/" }),
        })
      ).status,
    ).toBe(400);
    expect((await call(`/api/mcp/servers/${body.id}`, { method: "DELETE", key: keys.boss })).status).toBe(200);
    expect((await call(`/api/mcp/servers/${body.id}`, { key: keys.boss })).status).toBe(404);
  });

  it("keeps a header's stored value when an edit sends it as null, and refuses null for a header it does not have", async () => {
    const { body } = await register({ name: "kept", url: UPSTREAM, headers: { "X-Api-Key": SECRET, "X-Old": "gone" } });
    const patched = await json(`/api/mcp/servers/${body.id}`, {
      method: "PATCH",
      key: keys.boss,
      body: JSON.stringify({ headers: { "x-api-key": null, "X-New": "fresh" } }),
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.header_names).toEqual(["x-api-key", "X-New"]);
    expect(patched.text).not.toContain(SECRET);
    expect((await json(`/api/mcp/servers/${body.id}/refresh`, { method: "POST", key: keys.boss })).status).toBe(200);
    const sent = received.at(-1)?.headers;
    expect(sent?.get("X-Api-Key")).toBe(SECRET);
    expect(sent?.get("X-New")).toBe("fresh");
    expect(sent?.has("X-Old")).toBe(false);

    const unknown = await json(`/api/mcp/servers/${body.id}`, {
      method: "PATCH",
      key: keys.boss,
      body: JSON.stringify({ headers: { "X-Never-Set": null } }),
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain("X-Never-Set");
    await call(`/api/mcp/servers/${body.id}`, { method: "DELETE", key: keys.boss });
  });

  it("never sends stored header values to a URL on another origin: moving there needs the values again", async () => {
    const { body } = await register({ name: "moving", url: UPSTREAM, headers: { "X-Api-Key": SECRET } });
    const patch = (change: Record<string, unknown>) =>
      json(`/api/mcp/servers/${body.id}`, { method: "PATCH", key: keys.boss, body: JSON.stringify(change) });

    for (const change of [
      { url: "https://collector.example.net/mcp" },
      { url: "https://collector.example.net/mcp", headers: { "X-Api-Key": null } },
    ]) {
      const moved = await patch(change);
      expect(moved.status, moved.text).toBe(400);
      expect(moved.body.error.message).toContain("X-Api-Key");
    }
    expect((await json(`/api/mcp/servers/${body.id}`, { key: keys.boss })).body.url).toBe(UPSTREAM);

    // Another path on the same origin keeps them; a new origin with the values given, or none, is fine.
    expect((await patch({ url: `${UPSTREAM}?v=2` })).status).toBe(200);
    expect((await json(`/api/mcp/servers/${body.id}/refresh`, { method: "POST", key: keys.boss })).status).toBe(200);
    expect(received.at(-1)?.headers.get("X-Api-Key")).toBe(SECRET);
    expect((await patch({ url: CHANGING, headers: { "X-Api-Key": "given-again" } })).status).toBe(200);
    expect((await patch({ url: UPSTREAM, headers: null })).body.header_names).toEqual([]);
    await call(`/api/mcp/servers/${body.id}`, { method: "DELETE", key: keys.boss });
  });

  it("reports a down server as failing, with a 502 that says it is retryable", async () => {
    const { body } = await register({ name: "down", url: DOWN });
    const refreshed = await json(`/api/mcp/servers/${body.id}/refresh`, { method: "POST", key: keys.boss });
    expect(refreshed.status).toBe(502);
    expect(refreshed.body.error.details).toMatchObject({ is_upstream: true, retryable: true });
    const view = await json(`/api/mcp/servers/${body.id}`, { key: keys.boss });
    expect(view.body.health).toMatchObject({ status: "failing", last_error: expect.stringContaining("could not be reached") });
  });

  it("fetches the tool list again after the server says its tools changed", async () => {
    const { body } = await register({ name: "changing", url: CHANGING });
    const refreshed = await json(`/api/mcp/servers/${body.id}/refresh`, { method: "POST", key: keys.boss });
    expect(refreshed.body.server.health.tools_fetched_at).toBeTruthy();
    const rotated = await json(`/api/mcp/proxy/${body.id}/tools/rotate/call`, {
      method: "POST",
      key: keys.boss,
      body: "{}",
    });
    expect(rotated.body.text).toBe("rotated");
    const after = await json(`/api/mcp/servers/${body.id}`, { key: keys.boss });
    expect(after.body.health.tools_fetched_at).toBeNull();
  });

  it("refuses to follow a redirect to a private address", async () => {
    const { body } = await register({ name: "redirector", url: REDIRECTING });
    const refreshed = await json(`/api/mcp/servers/${body.id}/refresh`, { method: "POST", key: keys.boss });
    expect(refreshed.status).toBe(502);
    expect(refreshed.body.error.message).toContain("refused address");
    expect(refreshed.body.error.details).toMatchObject({ is_upstream: true, retryable: false });
  });
});

describe("the proxy and action recall", () => {
  let id: string;
  beforeAll(async () => {
    id = (await register({ name: "proxied", url: UPSTREAM, headers: { Authorization: `Bearer ${SECRET}` } })).body.id;
  });

  it("describes a tool as a function pointing at the proxy", async () => {
    const { status, body } = await json(`/api/mcp/servers/${id}/tools/echo/function`, { key: keys.boss });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      name: "mcp_proxied_echo",
      description: "Echoes a message.",
      parameters: {
        type: "object",
        properties: { message: { type: "string", description: "what to echo" } },
        required: ["message"],
      },
      api_url: `http://weft.test/api/mcp/proxy/${id}/tools/echo/call`,
      fixed_params: {},
    });
    const tree = await json(`/api/mcp/servers/${id}/tools/tree/function`, { key: keys.boss });
    expect(tree.body.parameters.properties.root).toEqual({
      type: "object",
      description: "the tree",
      properties: { label: { type: "string" }, children: { type: "array", items: { type: "object" } } },
    });
    expect(tree.body.pruned).toEqual([expect.objectContaining({ reason: "cycle" })]);
    expect(tree.body.strict_parameters).toBeNull();
  });

  it("calls a tool with flat parameters and returns its result", async () => {
    const { status, body } = await json(`/api/mcp/proxy/${id}/tools/echo/call`, {
      method: "POST",
      key: keys.staff,
      body: JSON.stringify({ message: "你好" }),
    });
    expect(status).toBe(200);
    expect(body.text).toBe("echo: 你好");
  });

  it("maps errors the way the seed says, with details", async () => {
    const cases: [string, unknown, number, Record<string, unknown>][] = [
      ["nope", {}, 404, { is_upstream: false, status_code: 404, retryable: false }],
      ["echo", { message: 5 }, 400, { is_upstream: false, status_code: 400, retryable: false }],
      ["echo", { message: "x", extra: 1 }, 400, { is_upstream: false }],
      ["fail", {}, 502, { is_upstream: true, retryable: false }],
      ["huge", {}, 502, { is_upstream: true, retryable: true }],
    ];
    for (const [tool, args, status, details] of cases) {
      const res = await json(`/api/mcp/proxy/${id}/tools/${tool}/call`, {
        method: "POST",
        key: keys.boss,
        body: JSON.stringify(args),
      });
      expect(res.status, tool).toBe(status);
      expect(res.body.error.details, tool).toMatchObject(details);
      expect(res.text).not.toContain(SECRET);
    }
    const bad = await json(`/api/mcp/proxy/${id}/tools/echo/call`, {
      method: "POST",
      key: keys.boss,
      body: JSON.stringify({ message: 5 }),
    });
    expect(bad.body.error.message).toContain("message");
    expect(
      (await call(`/api/mcp/proxy/mcp_unknown/tools/echo/call`, { method: "POST", key: keys.boss, body: "{}" })).status,
    ).toBe(404);
  });

  it("masks a credential that a server echoes back, in results and in errors", async () => {
    const who = await json(`/api/mcp/proxy/${id}/tools/whoami/call`, { method: "POST", key: keys.staff, body: "{}" });
    expect(who.status).toBe(200);
    expect(who.body.text).toBe("you sent [redacted]");
    expect(who.text).not.toContain(SECRET);
    const leak = await json(`/api/mcp/proxy/${id}/tools/leaky_fail/call`, { method: "POST", key: keys.boss, body: "{}" });
    expect(leak.status).toBe(502);
    expect(leak.text).not.toContain(SECRET);
    expect(leak.body.error.message).toContain("[redacted]");
  });

  it("lets staff call read-only tools only", async () => {
    const res = await call(`/api/mcp/proxy/${id}/tools/add_note/call`, {
      method: "POST",
      key: keys.staff,
      body: JSON.stringify({ text: "x" }),
    });
    expect(res.status).toBe(403);
    const boss = await json(`/api/mcp/proxy/${id}/tools/add_note/call`, {
      method: "POST",
      key: keys.boss,
      body: JSON.stringify({ text: "x" }),
    });
    expect(boss.body.result).toEqual({ saved: "x" });
  });

  it("gives up on a tool that hangs, answering 502 retryable (MCP_CALL_TIMEOUT_MS is 1500 in tests)", async () => {
    const res = await json(`/api/mcp/proxy/${id}/tools/hang/call`, { method: "POST", key: keys.boss, body: "{}" });
    expect(res.status).toBe(502);
    expect(res.body.error.details).toMatchObject({ is_upstream: true, retryable: true });
    expect(res.body.error.message).toMatch(/did not answer/);
  });
});

describe("external tools in the faces", () => {
  it("serves enabled servers' tools to the chat registry and only exposed ones on /mcp", async () => {
    const exposed = (await register({ name: "shown", url: UPSTREAM, expose_on_mcp: true })).body;
    await register({ name: "hidden", url: UPSTREAM, expose_on_mcp: false });
    const client = await mcpClient(keys.boss);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("mcp_shown_echo");
    expect(names).not.toContain("mcp_hidden_echo");
    const result = await client.callTool({ name: "mcp_shown_echo", arguments: { message: "hi" } });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain("echo: hi");
    await client.close();

    const staff = await mcpClient(keys.staff);
    const staffNames = (await staff.listTools()).tools.map((t) => t.name);
    expect(staffNames).toContain("mcp_shown_echo");
    expect(staffNames).not.toContain("mcp_shown_add_note");
    await staff.close();

    const other = await mcpClient(keys.otherBoss);
    expect((await other.listTools()).tools.some((t) => t.name.startsWith("mcp_"))).toBe(false);
    await other.close();
    expect(exposed.id).toBeTruthy();
  });

  it("serves tool lists from the cache within the TTL instead of asking the server each time", async () => {
    await register({ name: "cached", url: UPSTREAM, expose_on_mcp: true });
    const first = await mcpClient(keys.admin);
    await first.listTools();
    await first.close();
    const listsBefore = received.length;
    const second = await mcpClient(keys.admin);
    expect((await second.listTools()).tools.map((t) => t.name)).toContain("mcp_cached_echo");
    await second.close();
    expect(received.length).toBe(listsBefore);
  });

  it("asks the user before running a tool the server does not declare read-only, and runs it once on confirm", async () => {
    await register({ name: "writer", url: UPSTREAM, expose_on_mcp: true });
    const client = await mcpClient(keys.boss);
    const held = await client.callTool({ name: "mcp_writer_add_note", arguments: { text: "布料到货" } });
    await client.close();
    const action = held.structuredContent as { action_id: string; summary: string; preview: { label: string; value: string }[] };
    expect(action.summary).toContain("writer");
    expect(action.preview).toContainEqual({ label: "text", value: "布料到货" });
    const addNoteCalls = () => calledTools.filter((name) => name === "add_note").length;
    expect(addNoteCalls()).toBe(0);

    const confirmed = await json(`/api/actions/${action.action_id}/confirm`, { method: "POST", key: keys.boss });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toMatchObject({
      status: "confirmed",
      kind: "external_call",
      result: { tool: "add_note", result: { saved: "布料到货" } },
    });
    const again = await json(`/api/actions/${action.action_id}/confirm`, { method: "POST", key: keys.boss });
    expect(again.body.status).toBe("confirmed");
    expect(addNoteCalls()).toBe(1);
    const audit = await dbOf("t-jinxiu")
      .prepare("SELECT kind, entity_id FROM business_audit WHERE action_id = ?")
      .bind(action.action_id)
      .all();
    expect(audit.results).toEqual([{ kind: "external_call", entity_id: expect.stringMatching(/\/add_note$/) }]);
    // Someone else in the workshop cannot confirm it.
    expect(
      (await call(`/api/actions/${action.action_id}/confirm`, { method: "POST", key: keys.admin })).status,
    ).toBeGreaterThanOrEqual(400);
  });

  it("puts an external write to a 2026-07-28 client's person as an elicitation, and runs it once on accept", async () => {
    await register({ name: "asked", url: UPSTREAM, expose_on_mcp: true });
    const { client, asked } = await askingClient(keys.boss, () => ({ action: "accept", content: {} }));
    const result = await client.callTool({ name: "mcp_asked_add_note", arguments: { text: "拉链到货" } });
    expect(asked[0]?.message).toContain("text：拉链到货");
    expect(result.structuredContent).toMatchObject({
      status: "confirmed",
      kind: "external_call",
      result: { tool: "add_note", result: { saved: "拉链到货" } },
    });
    expect(calledTools.filter((name) => name === "add_note")).toHaveLength(1);
    const audit = await dbOf("t-jinxiu")
      .prepare("SELECT confirmed_via FROM business_audit WHERE action_id = ?")
      .bind((result.structuredContent as { action_id: string }).action_id)
      .first();
    expect(audit).toEqual({ confirmed_via: "form_elicitation" });
  });

  it("leaves a down server's tools out of /mcp instead of failing it", async () => {
    await register({ name: "gone", url: DOWN, expose_on_mcp: true });
    const client = await mcpClient(keys.boss);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("knowledge_search");
    expect(names.some((n) => n.startsWith("mcp_gone_"))).toBe(false);
    await client.close();
  });

  it("marks what it sends, and serves a marked request without contacting servers, so no loop can form", async () => {
    // A server registered with a Weft's own /mcp URL (or two Wefts naming each other) would
    // otherwise turn every tools/list into requests that each make more, until timeouts end them.
    const { body } = await register({ name: "relay", url: UPSTREAM, expose_on_mcp: true });
    expect((await json(`/api/mcp/servers/${body.id}/refresh`, { method: "POST", key: keys.boss })).status).toBe(200);
    expect(received.length).toBeGreaterThan(0);
    expect(received.every((r) => r.headers.get("X-Weft-Federation") === "1")).toBe(true);

    received.length = 0;
    const relayed = { "X-Weft-Federation": "1", Accept: "application/json, text/event-stream" };
    const listed = await json("/mcp", {
      method: "POST",
      key: keys.boss,
      headers: relayed,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    const names: string[] = listed.body.result.tools.map((t: { name: string }) => t.name);
    expect(names).toContain("list_knowledge_bases");
    expect(names.filter((n) => n.startsWith("mcp_"))).toEqual([]);
    const proxied = await json(`/api/mcp/proxy/${body.id}/tools/echo/call`, {
      method: "POST",
      key: keys.boss,
      headers: relayed,
      body: JSON.stringify({ message: "hi" }),
    });
    expect(proxied.status).toBe(403);
    expect(received).toHaveLength(0);
    expect((await json(`/api/mcp/servers/${body.id}`, { key: keys.boss })).body.health.status).toBe("ok");
    await call(`/api/mcp/servers/${body.id}`, { method: "DELETE", key: keys.boss });
  });

  it("asks external servers nothing for a ping or a call of Weft's own tool", async () => {
    const { body } = await register({ name: "quiet", url: UPSTREAM, expose_on_mcp: true });
    const client = await mcpClient(keys.boss);
    const stale = () =>
      dbOf("t-jinxiu")
        .prepare("UPDATE mcp_servers SET tools_fetched_at = '2020-01-01T00:00:00.000Z' WHERE id = ?")
        .bind(body.id)
        .run();
    await stale();
    received.length = 0;
    await client.ping();
    expect((await client.callTool({ name: "list_knowledge_bases", arguments: {} })).isError).toBeFalsy();
    expect(received).toHaveLength(0);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("mcp_quiet_echo");
    expect(received.length).toBeGreaterThan(0);
    await client.close();
  });

  it("tells /mcp clients a server is left out, and answers a call to one of its known tools 502, retryable", async () => {
    const { body } = await register({ name: "flaky", url: UPSTREAM, expose_on_mcp: true });
    const up = await mcpClient(keys.boss);
    expect((await up.listTools()).tools.map((t) => t.name)).toContain("mcp_flaky_echo");
    await up.close();
    // The server goes away and its cached list grows old.
    await dbOf("t-jinxiu")
      .prepare("UPDATE mcp_servers SET url = ?, tools_fetched_at = '2020-01-01T00:00:00.000Z' WHERE id = ?")
      .bind(DOWN, body.id)
      .run();

    const client = await mcpClient(keys.boss);
    expect(client.getInstructions()).toContain("The external MCP server 'flaky' is unavailable right now");
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).not.toContain("mcp_flaky_echo");
    expect(listed.tools.map((t) => t.name)).toContain("knowledge_search");
    expect(JSON.stringify(listed._meta)).toContain(
      "'flaky' is unavailable right now (it could not be reached or did not list its tools)",
    );
    const result = await client.callTool({ name: "mcp_flaky_echo", arguments: { message: "hi" } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("upstream_failed: The MCP server 'flaky' is unavailable right now");
    expect(result._meta?.["weft/error"]).toEqual({ code: "upstream_failed", status: 502, retryable: true });
    await client.close();

    const health = await json(`/api/mcp/servers/${body.id}`, { key: keys.boss });
    expect(health.body.health.status).toBe("failing");
    // The other faces' answer for the same call: the proxy's 502, retryable.
    const proxied = await json(`/api/mcp/proxy/${body.id}/tools/echo/call`, { method: "POST", key: keys.boss, body: "{}" });
    expect(proxied.status).toBe(502);
    expect(proxied.body.error.details).toMatchObject({ is_upstream: true, retryable: true });
  });

  it("never writes a header value to the logs", async () => {
    const lines: string[] = [];
    for (const method of ["log", "warn", "error", "info", "debug"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        lines.push(args.map(String).join(" "));
      });
    }
    const { body } = await register({ name: "logged", url: DOWN, headers: { Authorization: `Bearer ${SECRET}` } });
    await call(`/api/mcp/servers/${body.id}/refresh`, { method: "POST", key: keys.boss });
    await call(`/api/mcp/proxy/${body.id}/tools/echo/call`, { method: "POST", key: keys.boss, body: "{}" });
    vi.restoreAllMocks();
    installFakeNetwork();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join("\n")).not.toContain(SECRET);
  });
});

describe("a confirmed external call while the workshop is being moved", () => {
  it("is not made, and the action stays pending to be confirmed after the move", async () => {
    const { body: server } = await register({ name: "moving", url: UPSTREAM });
    const prepared = {
      kind: "external_call",
      write: { serverId: server.id, toolName: "add_note", arguments: { text: "搬家时" } },
      summary: "add a note",
      preview: [],
      ambiguities: [],
      needs: "boss" as const,
    };
    const action = await holdAction({ actions: testServices().actions, user: users.boss, prepared });
    // The workshop's services as a request gets them while it is fenced for a move.
    const fenced = servicesFor(env, configFor(env), { ...workshopOf("t-jinxiu"), moving: true });
    const confirming = confirmAction({
      actions: fenced.actions,
      user: users.boss,
      actionId: action.action_id,
      confirmation: onTheCard,
    });
    await expect(confirming).rejects.toThrow(/nothing was written/);
    expect(calledTools).not.toContain("add_note");
    const after = await getAction({ actions: testServices().actions, user: users.boss, actionId: action.action_id });
    expect(after.status).toBe("pending");
    const confirmed = await confirmAction({
      actions: testServices().actions,
      user: users.boss,
      actionId: action.action_id,
      confirmation: onTheCard,
    });
    expect(confirmed.status).toBe("confirmed");
    expect(calledTools).toEqual(["add_note"]);
  });
});
