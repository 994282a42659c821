import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  closedPortUrl,
  type Started,
  type StatefulServer,
  startAwkwardServer,
  startEverything,
  startStatefulServer,
} from "../../scripts/mcp-test-servers.ts";

const baseUrl = inject("baseUrl");
const logFile = inject("logFile");
const SECRET = "e2e-secret-key-7f3a9c";
const run = Date.now().toString(36);

let everything: Started;
let everythingSse: Started;
let awkward: Started & { seen: Headers[] };
let stateful: StatefulServer;

beforeAll(async () => {
  [everything, everythingSse, awkward, stateful] = await Promise.all([
    startEverything("streamableHttp"),
    startEverything("sse"),
    startAwkwardServer(),
    startStatefulServer(),
  ]);
});
afterAll(async () => {
  await Promise.all([everything?.stop(), everythingSse?.stop(), awkward?.stop(), stateful?.stop()]);
});

interface Answer {
  status: number;
  text: string;
  body: Record<string, unknown> & { error?: { code: string; message: string; details?: Record<string, unknown> } };
}

async function api(
  path: string,
  { method = "GET", body, key = "dev-boss-key" }: { method?: string; body?: unknown; key?: string } = {},
): Promise<Answer> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) };
}

async function register(name: string, url: string, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await api("/api/mcp/servers", { method: "POST", body: { name: `${name}-${run}`, url, ...extra } });
  expect(created.status, created.text).toBe(201);
  return created.body.id as string;
}

describe("federation against real MCP servers on npm run dev", () => {
  it("registers the reference everything server, lists, converts and calls its tools through the proxy", async () => {
    const id = await register("everything", everything.url, { headers: { "X-Api-Key": SECRET } });
    const refreshed = await api(`/api/mcp/servers/${id}/refresh`, { method: "POST" });
    expect(refreshed.status, refreshed.text).toBe(200);
    const names = (refreshed.body.tools as { name: string }[]).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "get-sum"]));
    expect(refreshed.body.server).toMatchObject({ transport: "streamable-http", health: { status: "ok" } });

    const fn = await api(`/api/mcp/servers/${id}/tools/get-sum/function`);
    expect(fn.body).toMatchObject({
      name: `mcp_everything_${run}_get_sum`.slice(0, 64),
      parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
      fixed_params: {},
    });
    expect(fn.body.api_url).toBe(`${baseUrl}/api/mcp/proxy/${id}/tools/get-sum/call`);

    const sum = await api(`/api/mcp/proxy/${id}/tools/get-sum/call`, { method: "POST", body: { a: 2, b: 3 } });
    expect(sum.status, sum.text).toBe(200);
    expect(sum.body.text).toContain("is 5");
    const echo = await api(`/api/mcp/proxy/${id}/tools/echo/call`, {
      method: "POST",
      body: { message: "你好" },
      key: "dev-staff-key",
    });
    expect(echo.body.text).toBe("Echo: 你好");

    const bad = await api(`/api/mcp/proxy/${id}/tools/get-sum/call`, { method: "POST", body: { a: "two" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toMatch(/a|b/);
    expect(bad.body.error?.details).toMatchObject({ is_upstream: false, retryable: false });
    expect((await api(`/api/mcp/proxy/${id}/tools/no-such-tool/call`, { method: "POST", body: {} })).status).toBe(404);
    for (const answer of [refreshed, fn, sum, echo, bad]) expect(answer.text).not.toContain(SECRET);
  });

  it("falls back to the HTTP+SSE transport for a server that only speaks it", async () => {
    const id = await register("sse", everythingSse.url);
    const refreshed = await api(`/api/mcp/servers/${id}/refresh`, { method: "POST" });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(refreshed.body.server).toMatchObject({ transport: "sse" });
    const echo = await api(`/api/mcp/proxy/${id}/tools/echo/call`, { method: "POST", body: { message: "over sse" } });
    expect(echo.body.text).toBe("Echo: over sse");
  });

  it("re-exposes a server on /mcp only when asked, and another workshop sees none of it", async () => {
    await register("shown", everything.url, { expose_on_mcp: true });
    await register("unshown", everything.url);
    const client = new Client({ name: "weft-e2e", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
        requestInit: { headers: { Authorization: "Bearer dev-boss-key" } },
      }),
    );
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain(`mcp_shown_${run}_echo`);
    expect(names.some((n) => n.startsWith(`mcp_unshown_${run}`))).toBe(false);
    const result = await client.callTool({ name: `mcp_shown_${run}_echo`, arguments: { message: "via weft" } });
    expect(JSON.stringify(result.content)).toContain("Echo: via weft");
    await client.close();
    expect(((await api("/api/mcp/servers", { key: "dev-other-boss-key" })).body.servers as unknown[]).length).toBe(0);
  });

  it("sends the stored key to the server and shows it nowhere else", async () => {
    const id = await register("awkward", `${awkward.url}/mcp`, { headers: { "X-Api-Key": SECRET } });
    const who = await api(`/api/mcp/proxy/${id}/tools/whoami/call`, { method: "POST", body: {} });
    expect(who.body.text).toBe(`key of length ${SECRET.length}`);
    expect(awkward.seen.at(-1)?.get("x-api-key")).toBe(SECRET);
    const listed = await api("/api/mcp/servers");
    expect(listed.text).toContain("X-Api-Key");
    expect(listed.text).not.toContain(SECRET);
  });

  it("cuts a recursive schema, and answers a hanging, oversized or redirecting server with 502", async () => {
    const id = await register("awkward2", `${awkward.url}/mcp`);
    const tree = await api(`/api/mcp/servers/${id}/tools/tree/function`);
    expect(tree.body.parameters).toMatchObject({
      properties: {
        root: { type: "object", properties: { children: { type: "array", items: { type: "object", description: "a node" } } } },
      },
    });
    expect(tree.body.pruned).toEqual([expect.objectContaining({ reason: "cycle" })]);
    const counted = await api(`/api/mcp/proxy/${id}/tools/tree/call`, {
      method: "POST",
      body: { root: { label: "a", children: [{ label: "b" }] } },
    });
    expect(counted.body.text).toBe("nodes: 2");

    const huge = await api(`/api/mcp/proxy/${id}/tools/huge/call`, { method: "POST", body: {} });
    expect(huge.status).toBe(502);
    expect(huge.body.error?.message).toContain("more than");
    const hang = await api(`/api/mcp/proxy/${id}/tools/hang/call`, { method: "POST", body: {} });
    expect(hang.status).toBe(502);
    expect(hang.body.error?.details).toMatchObject({ is_upstream: true, retryable: true });

    const redirecting = await register("redirect", `${awkward.url}/redirect`);
    const refused = await api(`/api/mcp/servers/${redirecting}/refresh`, { method: "POST" });
    expect(refused.status).toBe(502);
    expect(refused.body.error?.message).toContain("refused address");
  });

  it("reports a down server and keeps /mcp working", async () => {
    const id = await register("down", await closedPortUrl(), { expose_on_mcp: true });
    const refreshed = await api(`/api/mcp/servers/${id}/refresh`, { method: "POST" });
    expect(refreshed.status).toBe(502);
    expect(refreshed.body.error?.details).toMatchObject({ is_upstream: true, retryable: true });
    expect(((await api(`/api/mcp/servers/${id}`)).body.health as { status: string }).status).toBe("failing");
    const client = new Client({ name: "weft-e2e", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
        requestInit: { headers: { Authorization: "Bearer dev-boss-key" } },
      }),
    );
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("knowledge_search");
    await client.close();
  });

  it("calls a stateful server again on its session, one request a call, and opens a new one when it is forgotten", async () => {
    const id = await register("stateful", stateful.url);
    const echo = (message: string) => api(`/api/mcp/proxy/${id}/tools/echo/call`, { method: "POST", body: { message } });
    expect((await echo("one")).body.text).toBe("echo: one");
    stateful.requests.length = 0;
    for (const message of ["two", "three"]) expect((await echo(message)).body.text).toBe(`echo: ${message}`);
    expect(stateful.requests).toEqual(["POST tools/call 200", "POST tools/call 200"]);

    stateful.forget();
    stateful.requests.length = 0;
    expect((await echo("four")).body.text).toBe("echo: four");
    expect(stateful.requests.filter((r) => r.startsWith("POST"))).toEqual([
      "POST tools/call 404",
      "POST initialize 200",
      "POST notifications/initialized 202",
      "POST tools/call 200",
    ]);
    const named = await api(`/api/mcp/proxy/${id}/tools/my_session/call`, { method: "POST", body: {} });
    expect(named.body.text).toBe("session [redacted]");
    for (const sessionId of stateful.issued) expect(named.text).not.toContain(sessionId);
  });

  it("refuses hostile URLs even with local URLs allowed", async () => {
    for (const url of [
      "http://10.0.0.1/mcp",
      "http://[::1]:3000/mcp",
      "https://169.254.169.254/",
      "http://0x7f000002/",
      "https://x.internal/",
    ]) {
      const created = await api("/api/mcp/servers", { method: "POST", body: { name: `hostile-${run}`, url } });
      expect(created.status, url).toBe(400);
      expect(created.body.error?.code).toBe("unsafe_url");
    }
  });

  it("never writes a header value to the dev server's log", () => {
    const log = readFileSync(logFile, "utf8");
    expect(log).toContain("mcp_server_failed");
    expect(log).not.toContain(SECRET);
    expect(stateful.issued.length).toBeGreaterThan(0);
    for (const sessionId of stateful.issued) expect(log).not.toContain(sessionId);
  });
});
