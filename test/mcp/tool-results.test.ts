// Every tool's result, as a client receives it over /mcp, holds to its output schema: the whole
// schema (every nested field) and the compact one `tools/list` shows. Calls cover each of Weft's
// tools, a prepared write waiting and one with an open choice, confirm and cancel, and the outcome
// an elicitation gives a prepare tool.
import { Validator } from "@cfworker/json-schema";
import { beforeAll, describe, expect, it } from "vitest";
import { fullOutputJsonSchema, outputJsonSchema } from "../../src/tools/json-schemas.ts";
import { WEFT_TOOLS } from "../../src/tools/registry.ts";
import { loadDemoKnowledge } from "../demo-knowledge.ts";
import { keys } from "../fixtures.ts";
import { mcpClient } from "../helpers.ts";
import { askingClient, type CallResult } from "./clients.ts";

beforeAll(loadDemoKnowledge);

function tool(name: string) {
  const found = WEFT_TOOLS.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

/** The problems a result has against both of its tool's output schemas; none when it holds. */
function problems(name: string, structured: unknown): string[] {
  const full = new Validator(fullOutputJsonSchema(tool(name)), "2020-12", false).validate(structured);
  const listed = new Validator(outputJsonSchema(tool(name)) ?? {}, "2020-12", false).validate(structured);
  return [...full.errors, ...listed.errors].map((e) => `${e.instanceLocation}: ${e.error}`);
}

describe("every tool's result and its output schema", () => {
  const results: [string, CallResult][] = [];

  beforeAll(async () => {
    const client = await mcpClient(keys.boss);
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = (await client.callTool({ name, arguments: args })) as CallResult;
      if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
      results.push([name, result]);
      return result.structuredContent as Record<string, unknown>;
    };
    await call("knowledge_search", { query: "计件工资怎么算" });
    await call("knowledge_search", { query: "计件工资怎么算", source: "faq" });
    await call("knowledge_search", { query: "没有这回事的问题 xyzzy", min_score: 0.99 });
    await call("list_knowledge_bases", {});
    const session = await call("initiate_session", { user_query: "衣服跳针怎么办" });
    await call("navigate_session", { session_id: session.session_id, selected_option_id: "back" });
    await call("query_orders", {});
    await call("query_orders", { status: "还没完成", due_to: "2099-12-31" });
    await call("query_piece_records", { period: "this_month" });
    await call("query_piece_records", { period: "this_month", group_by: "employee", with_records: true, top: 2 });
    await call("query_payroll", {});
    await call("query_payroll", { employee: "张三", period: "last_month", with_lines: true });
    await call("query_processes", { include_inactive: true });
    await call("query_employees", {});
    const pending = await call("prepare_piece_record", { employee: "张三", process: "上领子", quantity: 5 });
    await call("prepare_piece_record", { employee: "李娟", process: "拼接", quantity: 30 });
    await call("confirm_action", { action_id: pending.action_id });
    await call("confirm_action", { action_id: pending.action_id });
    const order = await call("prepare_order", { customer: "测试客户", style: "A01", quantity: 10, due_date: "2099-01-01" });
    await call("cancel_action", { action_id: order.action_id });
    await call("cancel_action", { action_id: order.action_id });
    await call("prepare_business_change", { change: "price", process: "上领子", style: "A01", unit_price: 0.9 });
    const hire = await call("prepare_business_change", { change: "employee_add", name: "王强", phone: "13800138000" });
    await call("confirm_action", { action_id: hire.action_id });
    await client.close();
  });

  it("calls every one of Weft's tools", () => {
    expect(new Set(results.map(([name]) => name))).toEqual(new Set(WEFT_TOOLS.map((t) => t.name)));
  });

  it("holds each result to the whole output schema and the compact one tools/list shows", () => {
    for (const [name, result] of results) expect(problems(name, result.structuredContent), name).toEqual([]);
  });

  it("says first what to tell the person, and gives it as the text for a client that reads structured content", () => {
    for (const [name, result] of results) {
      // A business or search result's summary, a consultation's response, or what a write's person is told.
      const structured = result.structuredContent as { summary?: string; response?: string; tell_user?: string };
      const said = structured.tell_user ?? structured.summary ?? structured.response;
      expect(said, name).toMatch(/\S/);
      const texts = (result.content as { type: string; text?: string }[]).filter((c) => c.type === "text").map((c) => c.text);
      if (structured.tell_user) expect(texts[0], name).toContain(structured.tell_user);
      else expect(texts[0]?.startsWith(said ?? ""), name).toBe(true);
      // The data once: no text block repeats the JSON.
      expect(
        texts.some((text) => text?.startsWith("{")),
        name,
      ).toBe(false);
    }
  });

  it("holds a prepare tool's outcome after an elicitation to the same schema", async () => {
    const { client } = await askingClient(keys.boss, () => ({ action: "accept", content: {} }));
    const result = (await client.callTool({
      name: "prepare_piece_record",
      arguments: { employee: "张三", process: "上领子", quantity: 3 },
    })) as CallResult;
    expect(result.structuredContent).toMatchObject({ status: "confirmed" });
    expect(problems("prepare_piece_record", result.structuredContent)).toEqual([]);
    const declined = await askingClient(keys.boss, () => ({ action: "decline" }));
    const cancelled = (await declined.client.callTool({
      name: "prepare_order",
      arguments: { customer: "测试客户", style: "A01", quantity: 10, due_date: "2099-01-01" },
    })) as CallResult;
    expect(cancelled.structuredContent).toMatchObject({ status: "cancelled" });
    expect(problems("prepare_order", cancelled.structuredContent)).toEqual([]);
  });
});
