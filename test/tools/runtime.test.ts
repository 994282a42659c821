import { env } from "cloudflare:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { ExternalTool } from "../../src/federation/external-tools.ts";
import { buildMcpServer } from "../../src/mcp/server.ts";
import { toolContext } from "../../src/tools/context.ts";
import { toolsFor, WEFT_TOOLS } from "../../src/tools/registry.ts";
import { runTool } from "../../src/tools/run-tool.ts";
import { defineTool, type Tool, type ToolContext } from "../../src/tools/tool.ts";
import { externalToolName } from "../../src/tools/tool-names.ts";
import type { UserContext } from "../../src/user-context.ts";

const boss: UserContext = { userId: "u-boss", tenantId: "t-jinxiu", role: "boss" };
const staff: UserContext = { userId: "u-staff", tenantId: "t-jinxiu", role: "staff" };
const otherBoss: UserContext = { userId: "u-other-boss", tenantId: "t-other", role: "boss" };

function contextFor(user: UserContext, external: ExternalTool[] = []): ToolContext {
  const ctx = toolContext({ env, user, requestId: "req-test", signal: new AbortController().signal });
  // A test provider: this workshop's external tools only, as the federation registry will answer.
  ctx.services.external = { toolsFor: async (caller) => external.filter(() => caller.tenantId === "t-jinxiu") };
  return ctx;
}

const echoTool = defineTool({
  name: "echo_number",
  title: "Echo",
  description: "Echoes a number back, for the runtime's tests only; never served.",
  inputSchema: z.object({ n: z.number().describe("A number.") }),
  outputSchema: z.object({ n: z.number() }),
  annotations: { readOnlyHint: true, destructiveHint: false },
  async run(_ctx, input) {
    // A bug a schema must catch: the tool returns a string where its schema promises a number.
    return { kind: "result", structured: { n: input.n === 13 ? ("thirteen" as unknown as number) : input.n } };
  },
});

const prepareTool = defineTool({
  name: "prepare_test_write",
  title: "Prepare a test write",
  description: "Prepares a write that needs the user's confirmation, for the runtime's tests only.",
  inputSchema: z.object({ pieces: z.number().int().describe("How many pieces.") }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  async run(_ctx, input) {
    return {
      kind: "pending_action",
      action: {
        actionId: "act-123",
        summary: `为张三记录 ${input.pieces} 件领子`,
        preview: [
          { label: "员工", value: "张三" },
          { label: "数量", value: String(input.pieces) },
        ],
        ambiguities: [],
        expiresAt: "2026-11-26T10:00:00.000Z",
      },
    };
  },
});

const weatherTool: ExternalTool = {
  server: "weather-api",
  name: "get-forecast",
  description: "Forecast for a city.",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
  annotations: { readOnlyHint: true },
  call: async (_ctx, input) => ({ kind: "result", structured: { forecast: `sunny in ${String(input.city)}` } }),
};

afterEach(() => vi.restoreAllMocks());

describe("runTool, the one runtime every face uses", () => {
  it("refuses an unknown field by name, without running the tool", async () => {
    const run = vi.spyOn(echoTool, "run");
    const outcome = await runTool(echoTool as unknown as Tool, contextFor(boss), { n: 1, topk: 3 });
    expect(outcome).toMatchObject({ ok: false, code: "invalid_input", retryable: false });
    expect(outcome.ok || outcome.message).toContain("topk");
    expect(run).not.toHaveBeenCalled();
  });

  it("refuses input of the wrong type, naming the field", async () => {
    const outcome = await runTool(echoTool as unknown as Tool, contextFor(boss), { n: "one" });
    expect(outcome).toMatchObject({ ok: false, code: "invalid_input" });
    expect(outcome.ok || outcome.message).toMatch(/^Invalid arguments for echo_number: n:/);
  });

  it("catches output that fails the tool's own schema as an internal error, logged", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const outcome = await runTool(echoTool as unknown as Tool, contextFor(boss), { n: 13 });
    expect(outcome).toMatchObject({ ok: false, code: "internal", retryable: true });
    expect(outcome.ok || outcome.message).toContain("req-test");
    expect(logged.mock.calls.flat().join("\n")).toContain("fails its schema");
  });

  it("passes a valid call through with its structured result", async () => {
    expect(await runTool(echoTool as unknown as Tool, contextFor(boss), { n: 7 })).toEqual({
      ok: true,
      kind: "result",
      structured: { n: 7 },
    });
  });

  it("checks a JSON-Schema tool's input with the JSON Schema validator", async () => {
    const [tool] = (await toolsFor(contextFor(boss, [weatherTool]))).filter((t) => t.kind === "json-schema");
    const missing = await runTool(tool!, contextFor(boss), {});
    expect(missing).toMatchObject({ ok: false, code: "invalid_input" });
    expect(missing.ok || missing.message).toContain("city");
    const extra = await runTool(tool!, contextFor(boss), { city: "杭州", units: "metric" });
    expect(extra).toMatchObject({ ok: false, code: "invalid_input" });
    expect(await runTool(tool!, contextFor(boss), { city: "杭州" })).toMatchObject({
      ok: true,
      structured: { forecast: "sunny in 杭州" },
    });
  });
});

describe("the registry, asked per caller", () => {
  it("filters Weft's tools by their least role", async () => {
    const bossOnly = defineTool({ ...echoTool, name: "boss_only_echo", minRole: "boss" }) as unknown as Tool;
    const list = WEFT_TOOLS as Tool[];
    list.push(bossOnly as never);
    try {
      const names = async (user: UserContext) => (await toolsFor(contextFor(user))).map((t) => t.name);
      expect(await names(boss)).toContain("boss_only_echo");
      expect(await names({ ...boss, role: "admin" })).toContain("boss_only_echo");
      expect(await names(staff)).not.toContain("boss_only_echo");
    } finally {
      list.pop();
    }
  });

  it("lists a workshop's JSON-Schema tool under the naming rule, for that workshop only", async () => {
    const mine = await toolsFor(contextFor(staff, [weatherTool]));
    expect(mine.map((t) => t.name)).toContain("mcp_weather_api_get_forecast");
    const theirs = await toolsFor(contextFor(otherBoss, [weatherTool]));
    expect(theirs.map((t) => t.name)).not.toContain("mcp_weather_api_get_forecast");
  });

  it("gives colliding external names a stable hash suffix, ASCII and at most 64 characters", async () => {
    const twin = { ...weatherTool, name: "get_forecast" };
    const long = { ...weatherTool, name: `${"预报".repeat(5)}-${"x".repeat(80)}` };
    const names = (await toolsFor(contextFor(boss, [weatherTool, twin, long]))).map((t) => t.name).slice(-3);
    expect(names[0]).toBe("mcp_weather_api_get_forecast");
    expect(names[1]).toMatch(/^mcp_weather_api_get_forecast_[0-9a-f]{8}$/);
    expect(new Set(names).size).toBe(3);
    for (const name of names) {
      expect(name).toMatch(/^[a-z0-9_]{1,64}$/);
    }
    expect(externalToolName("weather-api", "get_forecast", new Set(["mcp_weather_api_get_forecast"]))).toBe(names[1]);
  });
});

describe("the MCP adapter", () => {
  async function connect(tools: Tool[], ctx: ToolContext): Promise<Client> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await buildMcpServer(tools, ctx).connect(serverSide);
    const client = new Client({ name: "runtime-test", version: "1.0.0" });
    await client.connect(clientSide);
    return client;
  }

  it("renders a pending action as structured content and text telling the agent to ask the user", async () => {
    const client = await connect([prepareTool as unknown as Tool], contextFor(boss));
    const result = await client.callTool({ name: "prepare_test_write", arguments: { pieces: 50 } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      status: "pending_confirmation",
      action_id: "act-123",
      preview: [
        { label: "员工", value: "张三" },
        { label: "数量", value: "50" },
      ],
      expires_at: "2026-11-26T10:00:00.000Z",
    });
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text).toContain("nothing has been written yet");
    expect(text).toContain('confirm_action with action_id "act-123"');
    expect(text).toMatch(/Never confirm on your own initiative/);
  });

  it("serves a JSON-Schema tool with its own schema, and calls it", async () => {
    const ctx = contextFor(boss, [weatherTool]);
    const client = await connect(await toolsFor(ctx), ctx);
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "mcp_weather_api_get_forecast")?.inputSchema).toEqual(weatherTool.inputSchema);
    const result = await client.callTool({ name: "mcp_weather_api_get_forecast", arguments: { city: "苏州" } });
    expect(result.structuredContent).toEqual({ forecast: "sunny in 苏州" });
  });
});
