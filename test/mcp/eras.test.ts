import { describe, expect, it } from "vitest";
import { keys } from "../fixtures.ts";
import { type CallResult, ERAS, modernMcpClient, modernRequest } from "./clients.ts";

/** Arguments that make each of Weft's tools do its work for the boss of 锦绣制衣. */
const ARGUMENTS: Record<string, Record<string, unknown>> = {
  knowledge_search: { query: "领子" },
  list_knowledge_bases: {},
  initiate_session: { user_query: "我们厂最近次品很多" },
  query_orders: {},
  query_piece_records: { period: "this_month" },
  query_payroll: {},
  query_processes: {},
  query_employees: {},
  prepare_piece_record: { employee: "张三", process: "领子", quantity: 2 },
  prepare_order: { customer: "华联", style: "衬衫", quantity: 100, due_date: "2030-01-31" },
  prepare_business_change: { change: "adjustment_add", employee: "张三", kind: "allowance", amount: 10, reason: "全勤奖" },
};

const text = (result: CallResult) => (result.content as { type: string; text?: string }[]).map((c) => c.text ?? "").join("\n");

describe.each(ERAS)("/mcp for a $era", ({ connect }) => {
  it("lists every tool with a title, an icon, annotations and schemas, and calls each one", async () => {
    const client = await connect(keys.boss);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [...Object.keys(ARGUMENTS), "navigate_session", "confirm_action", "cancel_action"].sort(),
    );
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      // An address on the deployment, not the drawing: tools/list stays small.
      expect(tool.icons?.[0]?.src, tool.name).toMatch(/^http:\/\/weft\.test\/icons\/[a-z]+\.svg$/);
      expect(tool.annotations?.readOnlyHint, tool.name).toBeTypeOf("boolean");
      expect(tool.inputSchema.type, tool.name).toBe("object");
    }
    const results = new Map<string, CallResult>();
    for (const [name, args] of Object.entries(ARGUMENTS)) {
      const result = (await client.callTool({ name, arguments: args })) as CallResult;
      expect(result.isError, `${name}: ${text(result)}`).toBeFalsy();
      expect(result.structuredContent, name).toBeDefined();
      results.set(name, result);
    }
    const session = results.get("initiate_session")!.structuredContent as { session_id: string; options: { id: string }[] };
    const next = (await client.callTool({
      name: "navigate_session",
      arguments: { session_id: session.session_id, selected_option_id: session.options[0]!.id },
    })) as CallResult;
    expect(next.isError, text(next)).toBeFalsy();
    const piece = results.get("prepare_piece_record")!.structuredContent as { action_id: string };
    const order = results.get("prepare_order")!.structuredContent as { action_id: string };
    expect(
      ((await client.callTool({ name: "cancel_action", arguments: { action_id: piece.action_id } })) as CallResult)
        .structuredContent,
    ).toMatchObject({
      status: "cancelled",
    });
    expect(
      ((await client.callTool({ name: "confirm_action", arguments: { action_id: order.action_id } })) as CallResult)
        .structuredContent,
    ).toMatchObject({
      status: "confirmed",
    });
    await client.close();
  });

  it("answers a tool's failure as a tool error carrying weft/error", async () => {
    const client = await connect(keys.staff);
    const result = (await client.callTool({ name: "query_payroll", arguments: { employee: "张三" } })) as CallResult & {
      _meta?: Record<string, unknown>;
    };
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^forbidden/);
    expect(result._meta?.["weft/error"]).toMatchObject({ code: "forbidden", status: 403, retryable: false });
    await client.close();
  });
});

describe("/mcp for a 2026-07-28 client only", () => {
  it("answers server/discover with Weft's name, instructions and capabilities, and tools/list with an honest cache hint", async () => {
    const client = await modernMcpClient(keys.staff);
    expect(client.getServerVersion()).toMatchObject({ name: "weft", title: "Weft" });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toContain("workshop");
    const listed = await client.listTools();
    expect(listed).toMatchObject({ ttlMs: 0, cacheScope: "private" });
    await client.close();
  });

  it("has no ping: the 2026-07-28 revision removed it, so it is Method not found", async () => {
    const res = await modernRequest(keys.staff, "ping");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ id: 1, error: { code: -32601 } });
    const discover = await modernRequest(keys.staff, "server/discover");
    expect(await discover.json()).toMatchObject({ id: 1, result: { supportedVersions: ["2026-07-28"], cacheScope: "private" } });
  });
});
