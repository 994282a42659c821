import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { addMonths } from "../../src/business/local-time.ts";
import { sendChat, storedChat } from "./chat-api.ts";
import { browserCall, signIn } from "./sign-in.ts";
import { assembled, readChunks, textOf } from "./stream.ts";

type ToolPart = {
  type: string;
  state: string;
  input: Record<string, unknown>;
  output: Record<string, unknown>;
  errorText?: string;
};

function toolPart(message: UIMessage, name: string): ToolPart {
  const part = message.parts.find((p) => p.type === `tool-${name}`);
  if (!part) throw new Error(`no ${name} call in ${JSON.stringify(message.parts).slice(0, 500)}`);
  return part as unknown as ToolPart;
}

function pieces(part: ToolPart): number {
  return (part.output.totals as { pieces: number }).pieces;
}

async function ask(cookie: string, chatId: string, text: string) {
  const chunks = await readChunks(await sendChat(cookie, chatId, text));
  return { chunks, message: await assembled(chunks) };
}

describe("the offline model over the business tools", () => {
  it("records pieces through a confirm card, the REST confirm, and a reload that shows it all", async () => {
    const cookie = await signIn("boss", "boss123");
    const { chunks, message } = await ask(cookie, "biz-record", "给张三记上领子80件");
    const prepare = toolPart(message, "prepare_piece_record");
    expect(prepare.input).toEqual({ employee: "张三", process: "上领子", quantity: 80 });
    const card = chunks.find((c) => c.type === "data-confirm-card") as {
      id: string;
      data: { action_id: string; status: string; summary: string };
    };
    expect(card.id).toBe(card.data.action_id);
    expect(card.data).toMatchObject({ status: "pending", summary: expect.stringContaining("张三 上领子 80 件") });
    expect(textOf(message)).toContain("确认卡片");

    // Nothing is written until the user's click.
    const before = await ask(cookie, "biz-record", "张三今天做了多少件");
    const beforeCount = pieces(toolPart(before.message, "query_piece_records"));

    const confirmed = await browserCall(`/api/actions/${card.id}/confirm`, cookie, { method: "POST" });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toMatchObject({ action_id: card.id, status: "confirmed" });
    const after = await ask(cookie, "biz-record", "张三今天做了多少件");
    const query = toolPart(after.message, "query_piece_records");
    expect(query.input).toEqual({ employee: "张三", period: "today" });
    expect(pieces(query)).toBe(beforeCount + 80);

    const chat = await storedChat(cookie, "biz-record", 6);
    const stored = chat.messages[1] as UIMessage;
    expect(stored.parts.find((p) => p.type === "data-confirm-card")).toMatchObject({
      id: card.id,
      data: { status: "confirmed" },
    });
    expect(toolPart(stored, "prepare_piece_record").state).toBe("output-available");

    // The export says what happened to the card where the reply asked to decide it.
    const exported = await (await browserCall("/api/chats/biz-record/export", cookie)).text();
    expect(exported).toContain("已确认。");
    expect(exported).not.toContain("请在上面的确认卡片上点");
  });

  it("loads a card's status from its action, however it was decided, and never from the browser", async () => {
    const cookie = await signIn("boss", "boss123");
    const { chunks } = await ask(cookie, "biz-status", "给张三记上领子5件");
    const card = chunks.find((c) => c.type === "data-confirm-card") as { id: string };
    const cardIn = async () =>
      (await storedChat(cookie, "biz-status", 2)).messages[1]?.parts.find((p) => p.type === "data-confirm-card");
    expect(await cardIn()).toMatchObject({ data: { status: "pending" } });
    // The chat offers no way to record a status: one click is one request, to the actions route.
    const forged = await browserCall(`/api/chats/biz-status/actions/${card.id}`, cookie, {
      method: "POST",
      body: JSON.stringify({ status: "confirmed", result: "已登记" }),
    });
    expect(forged.status).toBe(404);
    expect(await cardIn()).toMatchObject({ data: { status: "pending" } });
    expect((await browserCall(`/api/actions/${card.id}/cancel`, cookie, { method: "POST" })).status).toBe(200);
    expect(await cardIn()).toMatchObject({ data: { status: "cancelled" } });
    const exported = await (await browserCall("/api/chats/biz-status/export", cookie)).text();
    expect(exported).toContain("已取消。");
  });

  it.each([
    ["生产中的订单有哪些", "query_orders"],
    ["张三这个月的工资", "query_payroll"],
    ["上领子的单价是多少", "query_processes"],
    ["车间有哪些员工", "query_employees"],
    ["李娟昨天做了多少件", "query_piece_records"],
    ["Which orders are in production?", "query_orders"],
    ["Show payroll for March", "query_payroll"],
  ])("answers %s with %s, its arguments accepted by the real tool", async (text, tool) => {
    const cookie = await signIn("boss", "boss123");
    const { message } = await ask(cookie, `biz-${tool}-${text.length}`, text);
    const part = toolPart(message, tool);
    expect(part.errorText).toBeUndefined();
    expect(part.state).toBe("output-available");
    expect(textOf(message).length).toBeGreaterThan(0);
  });

  it("puts business results into readable Chinese: labels, money in yuan, statuses by their label", async () => {
    const cookie = await signIn("boss", "boss123");
    const orders = textOf((await ask(cookie, "biz-read-orders", "生产中的订单有哪些")).message);
    // First what it looked at (the tool's summary: the status asked for, no dates), then the table.
    expect(orders).toMatch(
      /^生产中的订单，不限日期：共 \d+ 张、[\d,]+ 件，按交期排列[^\n]*。\n\n订单（\d+）：\n\n\| 订单号 \| 客户 \| 款式 \| 数量 \|/,
    );
    expect(orders).toContain("| 生产中 |");
    expect(orders).not.toContain("in_production");
    // The totals are the table's last row.
    expect(orders.split("\n").at(-1)).toMatch(/^\| \*\*合计\*\* \|/);
    const pay = textOf((await ask(cookie, "biz-read-pay", "张三这个月的工资")).message);
    expect(pay).toMatch(
      /^员工 张三 \(工号 001\)，本月（\d{4}-\d{2}-01 至 \d{2}-\d{2}，进行中）：实发 [\d,]+\.\d{2} 元（.*）。\n\n工资单（1）：/,
    );
    const done = textOf((await ask(cookie, "biz-read-pieces", "张三这个月做了多少件")).message);
    expect(done).toMatch(
      /^员工 张三 \(工号 001\)，本月（\d{4}-\d{2}-01 至 \d{2}-\d{2}，进行中）：共 [\d,]+ 件，计 [\d,]+\.\d{2} 元（\d+ 条记录）。/,
    );
  });

  it("asks for orders by due date, and says the dates are due dates", async () => {
    const cookie = await signIn("boss", "boss123");
    const { message } = await ask(cookie, "biz-due-month", "下个月到期的订单");
    const part = toolPart(message, "query_orders");
    expect(part.state).toBe("output-available");
    const { due_from, due_to } = part.input as { due_from: string; due_to: string };
    expect(due_from).toMatch(/^\d{4}-\d{2}-01$/);
    expect(due_from.slice(0, 7)).toBe(addMonths(part.output.today as string, 1));
    const orders = part.output.orders as { due_date: string }[];
    expect(orders.every((o) => o.due_date >= due_from && o.due_date <= due_to)).toBe(true);
    expect(textOf(message)).toMatch(new RegExp(`^下个月（${due_from} 至 ${due_to}）(到期的订单：|没有到期的订单。)`));

    // No demo order is due today (they are due 10 to 50 days on, or long past).
    const today = await ask(cookie, "biz-due-today", "今天要交的订单");
    const todayPart = toolPart(today.message, "query_orders");
    expect(todayPart.input).toEqual({ status: "open", due_from: todayPart.output.today, due_to: todayPart.output.today });
    expect(textOf(today.message)).toBe(`今天（${todayPart.output.today}）没有要交的订单（没完成的订单里没有这几天到期的）。`);
  });

  it("asks for orders placed this month by the day they were placed, and says so", async () => {
    const cookie = await signIn("boss", "boss123");
    const { message } = await ask(cookie, "biz-placed-month", "本月新增的订单");
    const part = toolPart(message, "query_orders");
    expect(part.state).toBe("output-available");
    const { created_from, created_to } = part.input as { created_from: string; created_to: string };
    expect(part.input).toEqual({ created_from, created_to });
    expect(created_from).toBe(`${(part.output.today as string).slice(0, 7)}-01`);
    const orders = part.output.orders as { created_on: string; due_date: string }[];
    // The demo's pending order was placed as the demo loaded, the others 20 to 100 days before.
    expect(orders.length).toBeGreaterThan(0);
    expect(orders.length).toBeLessThan(5);
    expect(orders.every((o) => o.created_on >= created_from && o.created_on <= created_to)).toBe(true);
    expect(orders.some((o) => o.due_date > created_to || o.due_date < created_from)).toBe(true);
    expect(textOf(message)).toMatch(new RegExp(`^本月新增的订单（${created_from} 至 ${created_to}）：\n\n订单（\\d+）：`));
    expect(textOf(message)).toContain(`| ${orders[0]?.created_on} |`);
  });

  it("prepares a boss's change of an order as a card with the old and new figures, written only on a yes", async () => {
    const cookie = await signIn("boss", "boss123");
    const { chunks, message } = await ask(cookie, "biz-change-boss", "把订单2026-001的数量改成900");
    expect(toolPart(message, "prepare_business_change").input).toEqual({ change: "order", order: "2026-001", quantity: 900 });
    const card = chunks.find((c) => c.type === "data-confirm-card") as { id: string; data: { status: string; summary: string } };
    expect(card.data.status).toBe("pending");
    expect(card.data.summary).toContain("900");
    expect(textOf(message)).toContain("确认卡片");
    // 取消 on the card: the order keeps its quantity.
    const cancelled = await browserCall(`/api/actions/${card.id}/cancel`, cookie, { method: "POST" });
    expect(cancelled.status).toBe(200);
    const after = await ask(cookie, "biz-change-boss", "订单2026-001");
    const order = (toolPart(after.message, "query_orders").output as { orders: { order_no: string; quantity: number }[] }).orders;
    expect(order.find((o) => o.order_no === "2026-001")?.quantity).not.toBe(900);
  });

  it("tells staff plainly that only the boss changes an order, and calls no tool", async () => {
    const cookie = await signIn("staff", "staff123");
    const { message } = await ask(cookie, "biz-change-staff", "把订单2026-001的数量改成900");
    expect(message.parts.some((p) => p.type.startsWith("tool-"))).toBe(false);
    expect(textOf(message)).toBe("你的角色不能修改已有的订单，请老板在对话里改。");
  });

  it("lets staff ask about their own pieces, and never offers a write to confirm by words", async () => {
    const cookie = await signIn("staff", "staff123");
    const own = await ask(cookie, "biz-staff", "我这个月做了多少件");
    expect(toolPart(own.message, "query_piece_records").state).toBe("output-available");
    const typed = await ask(cookie, "biz-staff", "确认");
    expect(typed.message.parts.some((p) => p.type.startsWith("tool-"))).toBe(false);
    expect(textOf(typed.message)).toContain("确认卡片");
  });
});
