// Business data a browser test makes for itself on the shared dev server: changes prepared and
// confirmed from the signed-in page (its session cookie, as a settings form sends them) and orders
// an agent prepares over MCP (the SDK's client). The e2e files share one server's data, so what a
// test makes that other tests would meet (an open order of A01) it also takes away.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Page } from "playwright-core";
import { expect } from "vitest";

/** A request from the signed-in page (its session cookie, same origin): status and body. */
export function fromPage(page: Page, path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  return page.evaluate(
    async ({ path, body }) => {
      const res = await fetch(path, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    { path, body },
  );
}

/** Prepares a change and confirms it as the signed-in boss, outside the part of the page under test. */
export async function written(page: Page, change: Record<string, unknown>): Promise<void> {
  const prepared = await fromPage(page, "/api/business/changes", change);
  expect(prepared.status, JSON.stringify(prepared.body)).toBe(201);
  const confirmed = await fromPage(page, `/api/actions/${prepared.body.action_id}/confirm`, { via: "settings" });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
}

/**
 * A new order of style A01, prepared by an agent with `dev-boss-key` and confirmed by the signed-in
 * boss; its order number.
 */
export async function newOrder(page: Page, baseUrl: string, customer: string): Promise<string> {
  const client = new Client({ name: "business-data-e2e", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
      requestInit: { headers: { Authorization: "Bearer dev-boss-key" } },
    }),
  );
  const prepared = await client.callTool({
    name: "prepare_order",
    arguments: { customer, style: "A01", quantity: 120, due_date: "2027-03-01" },
  });
  await client.close();
  const actionId = (prepared.structuredContent as { action_id?: string } | undefined)?.action_id;
  expect(actionId, JSON.stringify(prepared)).toBeTruthy();
  const confirmed = await fromPage(page, `/api/actions/${actionId}/confirm`, { via: "settings" });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  const orders = await page.evaluate(
    async () => (await (await fetch("/api/business/orders")).json()) as { orders: { order_no: string; customer: string }[] },
  );
  const made = orders.orders.find((o) => o.customer === customer);
  expect(made, JSON.stringify(orders)).toBeTruthy();
  return made?.order_no ?? "";
}

/** Cancels an order a test made, so that A01's piece records go on meeting one open order. */
export function cancelOrder(page: Page, orderNo: string): Promise<void> {
  return written(page, { change: "order", order: orderNo, status: "cancelled", reason: "测试结束" });
}

/** Signs in as the demo boss from the sign-in screen and waits for the chat's top bar. */
export async function signInAsBoss(page: Page, baseUrl: string): Promise<void> {
  await page.goto(baseUrl);
  await page.getByRole("heading", { name: "登录 Weft" }).waitFor();
  await page.getByLabel("用户名").fill("boss");
  await page.getByLabel("密码").fill("boss123");
  await page.keyboard.press("Enter");
  await page.locator(".topbar").waitFor();
}

/** The check of the change just asked for in 车间资料, or a failure naming the refusal shown instead. */
export async function checkShown(page: Page): Promise<string> {
  const either = page.locator("section.business").locator('.business-check, [role="alert"]').first();
  await either.waitFor();
  if ((await either.getAttribute("role")) === "alert") throw new Error(`refused: ${await either.textContent()}`);
  return (await either.textContent()) ?? "";
}
