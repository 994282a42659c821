import { describe, expect, it } from "vitest";
import type { PendingAction } from "../../src/shapes.ts";
import { freshUsername, ownKey } from "../auth/people-api.ts";
import { browserCall, ORIGIN } from "../chat/sign-in.ts";
import { call, mcpClient } from "../helpers.ts";

// A workshop that signed up a moment ago has no demo data: its boss enters an employee, a style and
// a process with its price in settings, places an order over MCP, and records the first pieces,
// every write confirmed by them.

const json = { "Content-Type": "application/json" };

async function signUp(): Promise<string> {
  const res = await call("/api/workshops", {
    method: "POST",
    headers: { ...json, Origin: ORIGIN, "CF-Connecting-IP": crypto.randomUUID() },
    body: JSON.stringify({
      workshop_name: "新星服装厂",
      name: "刘老板",
      username: freshUsername("liu"),
      password: "new-star-2026",
    }),
  });
  expect(res.status).toBe(201);
  return (res.headers.get("Set-Cookie") ?? "").split(";")[0] as string;
}

describe("a new workshop, from sign-up to its first piece record", () => {
  it("sets up its business in settings and records pieces, without SQL or demo data", async () => {
    const cookie = await signUp();
    const change = async (body: Record<string, unknown>) => {
      const sent = await browserCall("/api/business/changes", cookie, {
        method: "POST",
        headers: json,
        body: JSON.stringify(body),
      });
      expect(sent.status, await sent.clone().text()).toBe(201);
      const action = (await sent.json()) as PendingAction;
      const confirmed = await browserCall(`/api/actions/${action.action_id}/confirm`, cookie, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ via: "settings" }),
      });
      expect(confirmed.status, await confirmed.clone().text()).toBe(200);
      return (await confirmed.json()) as PendingAction;
    };
    expect(((await (await browserCall("/api/business/employees", cookie)).json()) as { employees: unknown[] }).employees).toEqual(
      [],
    );
    const hired = await change({ change: "employee_add", name: "陈一", phone: "13800000001" });
    expect(hired.result).toMatchObject({ name: "陈一", employee_no: "001" });
    await change({ change: "style_add", code: "C01", name: "连衣裙" });
    await change({ change: "process_add", style: "C01", name: "缝合", unit_price: 1.5 });

    const client = await mcpClient(await ownKey(cookie));
    const confirmOnCard = async (actionId: string) => {
      const res = await browserCall(`/api/actions/${actionId}/confirm`, cookie, { method: "POST" });
      expect(res.status).toBe(200);
      return (await res.json()) as PendingAction;
    };
    const tool = async <T>(name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })).structuredContent as unknown as T;
    const order = await tool<PendingAction>("prepare_order", {
      customer: "海澜",
      style: "C01",
      quantity: 100,
      due_date: "2099-01-31",
    });
    await confirmOnCard(order.action_id);
    const piece = await tool<PendingAction>("prepare_piece_record", { employee: "陈一", process: "缝合", quantity: 20 });
    expect(piece.preview).toContainEqual({ label: "金额", value: expect.stringContaining("30.00") });
    const done = await confirmOnCard(piece.action_id);
    expect(done.status).toBe("confirmed");
    const pay = await tool<{ payslips: { net_pay: { yuan: string } }[] }>("query_payroll", { employee: "陈一" });
    expect(pay.payslips[0]?.net_pay.yuan).toBe("30.00");
    await client.close();
  });
});
