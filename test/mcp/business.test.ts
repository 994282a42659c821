import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, it } from "vitest";
import { dbOf, keys } from "../fixtures.ts";
import { mcpClient } from "../helpers.ts";

type Structured = Record<string, unknown>;

async function structured<T = Structured>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await client.callTool({ name, arguments: args });
  const texts = (result.content as { text: string }[]).map((c) => c.text);
  if (result.isError) throw new Error(texts.join("\n"));
  return result.structuredContent as T;
}

async function toolError(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  return (result.content as { text: string }[])[0]?.text ?? "";
}

describe("workshop business over MCP", () => {
  it("lists the business tools with read-only and write annotations", async () => {
    const client = await mcpClient(keys.boss);
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get("query_piece_records")?.annotations?.readOnlyHint).toBe(true);
    expect(byName.get("query_payroll")?.outputSchema?.properties).toHaveProperty("payslips");
    expect(byName.get("prepare_piece_record")?.annotations?.readOnlyHint).toBe(false);
    expect(byName.get("confirm_action")?.description).toMatch(/explicitly said yes/);
    const staff = await (await mcpClient(keys.staff)).listTools();
    expect(staff.tools.map((t) => t.name)).not.toContain("prepare_order");
  });

  it("lets the boss of 锦绣制衣 read this month's pieces and pay per employee, then record 50 pieces of 领子 for 张三", async () => {
    const client = await mcpClient(keys.boss);
    const pieces = await structured<{ groups: { label: string; pieces: number }[]; totals: { pieces: number } }>(
      client,
      "query_piece_records",
      {
        period: "this_month",
        group_by: "employee",
      },
    );
    expect(pieces.groups.map((g) => g.label)).toContain("张三");
    expect(pieces.groups.reduce((n, g) => n + g.pieces, 0)).toBe(pieces.totals.pieces);
    const payroll = await structured<{ payslips: { employee: { name: string }; net_pay: { yuan: string } }[] }>(
      client,
      "query_payroll",
      {},
    );
    expect(payroll.payslips.map((p) => p.employee.name)).toEqual(expect.arrayContaining(["张三", "李娟", "张敏"]));
    const before = payroll.payslips.find((p) => p.employee.name === "张三")?.net_pay.yuan;

    const prepared = await client.callTool({
      name: "prepare_piece_record",
      arguments: { employee: "张三", process: "领子", quantity: 50 },
    });
    expect(prepared.isError).toBeFalsy();
    const action = prepared.structuredContent as {
      status: string;
      action_id: string;
      preview: { label: string; value: string }[];
    };
    expect(action.status).toBe("pending");
    expect(action.preview).toEqual(
      expect.arrayContaining([
        { label: "金额", value: "40.00 元" },
        { label: "数量", value: "50 件" },
      ]),
    );
    const text = (prepared.content as { text: string }[])[0]?.text ?? "";
    expect(text).toMatch(/^Pending confirmation \(nothing has been written yet\): 计件登记：张三 上领子 50 件/);
    expect(text).toContain("Never confirm on your own initiative");

    const confirmed = await structured<{ status: string; result: { quantity: number } }>(client, "confirm_action", {
      action_id: action.action_id,
    });
    expect(confirmed).toMatchObject({ status: "confirmed", result: { quantity: 50 } });
    const after = await structured<{ payslips: { net_pay: { cents: number; yuan: string } }[] }>(client, "query_payroll", {
      employee: "张三",
    });
    expect(Number(after.payslips[0]?.net_pay.yuan) - Number(before)).toBeCloseTo(40, 2);
  });

  it("keeps staff and the other workshop out of what is not theirs", async () => {
    const boss = await mcpClient(keys.boss);
    const pending = await boss.callTool({
      name: "prepare_piece_record",
      arguments: { employee: "张三", process: "领子", quantity: 7 },
    });
    const actionId = (pending.structuredContent as { action_id: string }).action_id;

    const staff = await mcpClient(keys.staff);
    expect(await toolError(staff, "query_payroll", { employee: "张三" })).toMatch(/^forbidden/);
    expect(await toolError(staff, "query_piece_records", { employee: "张三" })).toMatch(/^forbidden/);
    expect(await toolError(staff, "confirm_action", { action_id: actionId })).toMatch(/^action_unknown/);
    const own = await structured<{ records: { employee: { name: string } }[]; scope: string }>(staff, "query_piece_records", {
      limit: 50,
    });
    expect(own.scope).toBe("own");
    expect(new Set(own.records.map((r) => r.employee.name))).toEqual(new Set(["李娟"]));

    const other = await mcpClient(keys.otherBoss);
    expect(await toolError(other, "confirm_action", { action_id: actionId })).toMatch(/^action_unknown/);
    expect(await toolError(other, "cancel_action", { action_id: actionId })).toMatch(/^action_unknown/);
    expect(await toolError(other, "query_orders", { order: "o-jx-1" })).toMatch(/^unknown_name/);
    const theirs = await structured<{ employees: { id: string }[] }>(other, "query_employees", {});
    expect(theirs.employees.every((e) => e.id.startsWith("e-hm-"))).toBe(true);

    const written = await dbOf("t-jinxiu")
      .prepare("SELECT COUNT(*) AS n FROM piece_records WHERE action_id = ?1")
      .bind(actionId)
      .first<{ n: number }>();
    expect(written?.n).toBe(0);
    expect(await structured(boss, "cancel_action", { action_id: actionId })).toMatchObject({ status: "cancelled" });
  });

  it("lists orders placed on given days for an agent, and tells it when the days are reversed", async () => {
    const client = await mcpClient(keys.staff);
    const all = await structured<{ orders: { created_on: string }[]; today: string }>(client, "query_orders", { limit: 100 });
    const today = all.today;
    const placedToday = await structured<{ orders: { created_on: string }[] }>(client, "query_orders", {
      created_from: today,
      created_to: today,
    });
    expect(placedToday.orders.length).toBeGreaterThan(0);
    expect(placedToday.orders.every((o) => o.created_on === today)).toBe(true);
    expect(placedToday.orders.length).toBe(all.orders.filter((o) => o.created_on === today).length);
    expect(await toolError(client, "query_orders", { created_from: today, created_to: "2000-01-01" })).toMatch(
      /^invalid_input: created_from \(\d{4}-\d{2}-\d{2}\) is after created_to/,
    );
  });
});
