import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { ExternalServerTools, ExternalTool } from "../../src/federation/external-tools.ts";
import { upstreamError } from "../../src/federation/upstream-error.ts";
import { buildMcpServer, ERROR_META, LEFT_OUT_META } from "../../src/mcp/server.ts";
import { ActionResultSchema } from "../../src/tools/action-results.ts";
import { type Toolset, toolsFor, WEFT_TOOLS } from "../../src/tools/registry.ts";
import { runTool } from "../../src/tools/run-tool.ts";
import { defineTool, type Tool, type ToolContext } from "../../src/tools/tool.ts";
import { EXTERNAL_TOOL_PREFIX, externalToolName } from "../../src/tools/tool-names.ts";
import { said } from "../../src/tools/words.ts";
import type { UserContext } from "../../src/user-context.ts";
import { testContext } from "../fixtures.ts";

const boss: UserContext = { userId: "u-boss", tenantId: "t-jinxiu", role: "boss" };
const staff: UserContext = { userId: "u-staff", tenantId: "t-jinxiu", role: "staff" };
const otherBoss: UserContext = { userId: "u-other-boss", tenantId: "t-other", role: "boss" };

/** One server, `weather-api`, offering `tools`. */
const available = (tools: ExternalTool[]): ExternalServerTools[] => [{ server: "weather-api", status: "available", tools }];

function contextFor(user: UserContext, servers: ExternalServerTools[] = []): ToolContext {
  const ctx = testContext(user, { requestId: "req-test" });
  // A test provider: this workshop's external servers only, as the federation registry answers.
  ctx.services.external = { toolsFor: async (caller) => (caller.tenantId === "t-jinxiu" ? servers : []) };
  return ctx;
}

const names = (toolset: Toolset) => toolset.tools.map((t) => t.name);

const echoTool = defineTool({
  name: "echo_number",
  words: { title: said("回声", "Echo"), icon: "records" },
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
  words: { title: said("准备测试写入", "Prepare a test write"), icon: "write" },
  description: "Prepares a write that needs the user's confirmation, for the runtime's tests only.",
  inputSchema: z.object({ pieces: z.number().int().describe("How many pieces.") }),
  outputSchema: ActionResultSchema,
  annotations: { readOnlyHint: false, destructiveHint: false },
  async run(_ctx, input) {
    return {
      kind: "pending_action",
      action: {
        action_id: "act-123",
        kind: "test_record",
        status: "pending",
        created_at: "2026-11-26T09:50:00.000Z",
        confirm_url: `http://weft.test/actions/${"act-123"}`,
        summary: `为张三记录 ${input.pieces} 件领子`,
        preview: [
          { label: "员工", value: "张三" },
          { label: "数量", value: String(input.pieces) },
        ],
        ambiguities: [],
        expires_at: "2026-11-26T10:00:00.000Z",
      },
    };
  },
});

const weatherTool: ExternalTool = {
  name: "get-forecast",
  description: "Forecast for a city.",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
  annotations: { readOnlyHint: true },
  call: async (_user, input) => ({ kind: "result", output: { structured: { forecast: `sunny in ${String(input.city)}` } } }),
};

afterEach(() => vi.restoreAllMocks());

describe("runTool, the one runtime every face uses", () => {
  it("refuses an unknown field by name, without running the tool", async () => {
    const run = vi.spyOn(echoTool, "run");
    const outcome = await runTool(echoTool as unknown as Tool, contextFor(boss), { n: 1, topk: 3 });
    expect(outcome).toMatchObject({ ok: false, code: "invalid_input", retryable: false });
    expect(outcome.ok || outcome.message).toMatch(/^Invalid arguments for echo_number: \(arguments\): .*"topk"/);
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
    const [tool] = (await toolsFor(contextFor(boss, available([weatherTool])))).tools.filter((t) => t.kind === "json-schema");
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
      const namesFor = async (user: UserContext) => names(await toolsFor(contextFor(user)));
      expect(await namesFor(boss)).toContain("boss_only_echo");
      expect(await namesFor({ ...boss, role: "admin" })).toContain("boss_only_echo");
      expect(await namesFor(staff)).not.toContain("boss_only_echo");
    } finally {
      list.pop();
    }
  });

  it("lists a workshop's JSON-Schema tool under the naming rule, for that workshop only", async () => {
    const mine = await toolsFor(contextFor(staff, available([weatherTool])));
    expect(names(mine)).toContain("mcp_weather_api_get_forecast");
    const theirs = await toolsFor(contextFor(otherBoss, available([weatherTool])));
    expect(names(theirs)).not.toContain("mcp_weather_api_get_forecast");
  });

  it("keeps the external prefix for external tools: none of Weft's own starts with it", () => {
    expect(WEFT_TOOLS.filter((tool) => tool.name.startsWith(EXTERNAL_TOOL_PREFIX))).toEqual([]);
  });

  it("gives colliding external names a stable hash suffix, ASCII and at most 64 characters", async () => {
    const twin = { ...weatherTool, name: "get_forecast" };
    const long = { ...weatherTool, name: `${"预报".repeat(5)}-${"x".repeat(80)}` };
    const served = names(await toolsFor(contextFor(boss, available([weatherTool, twin, long])))).slice(-3);
    expect(served[0]).toBe("mcp_weather_api_get_forecast");
    expect(served[1]).toMatch(/^mcp_weather_api_get_forecast_[0-9a-f]{8}$/);
    expect(new Set(served).size).toBe(3);
    for (const name of served) {
      expect(name).toMatch(/^[a-z0-9_]{1,64}$/);
    }
    expect(externalToolName("weather-api", "get_forecast", new Set(["mcp_weather_api_get_forecast"]))).toBe(served[1]);
  });

  it("leaves a down server's tools out with a note, under the names they have when it is up", async () => {
    const down = upstreamError("The MCP server 'weather-api' is unavailable right now (it could not be reached).");
    const servers: ExternalServerTools[] = [
      {
        server: "weather-api",
        status: "left_out",
        reason: "it could not be reached or did not list its tools",
        tools: [{ ...weatherTool, call: () => Promise.reject(down) }],
      },
      { server: "maps", status: "available", tools: [{ ...weatherTool, name: "route" }] },
    ];
    const toolset = await toolsFor(contextFor(boss, servers));
    expect(names(toolset)).toContain("mcp_maps_route");
    expect(names(toolset)).not.toContain("mcp_weather_api_get_forecast");
    expect(toolset.unavailable.map((t) => t.name)).toEqual(["mcp_weather_api_get_forecast"]);
    expect(toolset.notes).toEqual([
      "The external MCP server 'weather-api' is unavailable right now (it could not be reached or did not list its tools); its tools are left out.",
    ]);
    // A name taken by a left-out server's tool is still taken: the available twin gets a suffix, as it would anyway.
    const twin = await toolsFor(contextFor(boss, [servers[0]!, ...available([{ ...weatherTool, name: "get_forecast" }])]));
    expect(names(twin)).toContainEqual(expect.stringMatching(/^mcp_weather_api_get_forecast_[0-9a-f]{8}$/));
  });
});

describe("the MCP adapter", () => {
  async function connect(toolset: Toolset | Tool[], ctx: ToolContext): Promise<Client> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const served = Array.isArray(toolset) ? { tools: toolset, unavailable: [], notes: [] } : toolset;
    await buildMcpServer(served, ctx, { readsStructuredContent: true }).connect(serverSide);
    const client = new Client({ name: "runtime-test", version: "1.0.0" });
    await client.connect(clientSide);
    return client;
  }

  it("renders a pending action as structured content and text telling the agent to ask the user", async () => {
    const ctx = { ...contextFor(boss), confirming: { by: "agent" as const, credential: "dev-", credentialId: "key:dev" } };
    const client = await connect([prepareTool as unknown as Tool], ctx);
    const result = await client.callTool({ name: "prepare_test_write", arguments: { pieces: 50 } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      status: "pending",
      action_id: "act-123",
      preview: [
        { label: "员工", value: "张三" },
        { label: "数量", value: "50" },
      ],
      // The wire shape's instant, and the workshop's time, not UTC's: 10:00 UTC is 18:00 in Shanghai.
      expires_at: "2026-11-26T10:00:00.000Z",
      expires_local: "2026-11-26 18:00",
      time_zone: "Asia/Shanghai",
      confirm_by: "agent",
    });
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text).toMatch(/^Pending confirmation \(nothing has been written yet\)/);
    expect(text).toContain("call confirm_action");
    expect(text).toMatch(/Never confirm on your own initiative/);
    expect(text).toContain("说“确认”我就写入");
  });

  it("tells an agent whose credential may not confirm to give the user the confirm page's link instead", async () => {
    const client = await connect([prepareTool as unknown as Tool], contextFor(boss));
    const result = await client.callTool({ name: "prepare_test_write", arguments: { pieces: 50 } });
    expect(result.structuredContent).toMatchObject({ confirm_url: "http://weft.test/actions/act-123", confirm_by: "weft" });
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text).toContain("confirm_action will not work");
    expect(text).toContain("请打开 http://weft.test/actions/act-123 核对后点“确认”");
    expect(text).not.toContain("call confirm_action");
  });

  it("serves a JSON-Schema tool with its own schema, and calls it", async () => {
    const ctx = contextFor(boss, available([weatherTool]));
    const client = await connect(await toolsFor(ctx), ctx);
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "mcp_weather_api_get_forecast")?.inputSchema).toEqual(weatherTool.inputSchema);
    const result = await client.callTool({ name: "mcp_weather_api_get_forecast", arguments: { city: "苏州" } });
    expect(result.structuredContent).toEqual({ forecast: "sunny in 苏州" });
  });

  it("tells the client which servers are left out, and answers a call to one of their tools 502, retryable", async () => {
    const down = upstreamError("The MCP server 'weather-api' is unavailable right now. Try again in a minute.");
    const ctx = contextFor(boss, [
      {
        server: "weather-api",
        status: "left_out",
        reason: "it timed out",
        tools: [{ ...weatherTool, call: () => Promise.reject(down) }],
      },
    ]);
    const client = await connect(await toolsFor(ctx), ctx);
    expect(client.getInstructions()).toContain("'weather-api' is unavailable right now (it timed out)");
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).not.toContain("mcp_weather_api_get_forecast");
    expect(listed._meta?.[LEFT_OUT_META]).toEqual([expect.stringContaining("'weather-api' is unavailable")]);

    const result = await client.callTool({ name: "mcp_weather_api_get_forecast", arguments: { city: "苏州" } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toMatch(/^upstream_failed: .*Try again in a minute\.$/);
    expect(result._meta?.[ERROR_META]).toEqual({ code: "upstream_failed", status: 502, retryable: true });
    // A name nobody knows is still the protocol's unknown-tool error.
    await expect(client.callTool({ name: "mcp_weather_api_nowcast", arguments: {} })).rejects.toThrow(/Unknown tool/);
  });
});
