import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { sendChat } from "./chat-api.ts";
import { signIn } from "./sign-in.ts";
import { assembled, readChunks, textOf } from "./stream.ts";

type ToolPart = { type: string; state: string; input: Record<string, unknown>; output: Record<string, unknown> };

async function ask(cookie: string, chatId: string, text: string) {
  const chunks = await readChunks(await sendChat(cookie, chatId, text));
  return { chunks, message: await assembled(chunks) };
}

function toolParts(message: UIMessage): ToolPart[] {
  return message.parts.filter((p) => p.type.startsWith("tool-")) as unknown as ToolPart[];
}

// English words a Chinese reply must not carry: the tools' agent-facing messages and raw codes.
// Style codes (A01), order numbers and ¥ amounts are not words.
const ENGLISH = /[A-Za-z]{3,}/;

describe("the product's own examples through /api/chat, parsed by the ai package", () => {
  it("prepares the source design's 帮我录入，张三今天做了50件领子 with 领子 read as 上领子", async () => {
    const cookie = await signIn("boss", "boss123");
    const { chunks, message } = await ask(cookie, "ex-design", "帮我录入，张三今天做了50件领子");
    const [part] = toolParts(message);
    expect(part).toMatchObject({ type: "tool-prepare_piece_record", state: "output-available" });
    expect(part?.input).toMatchObject({ employee: "张三", process: "领子", quantity: 50 });
    const card = chunks.find((c) => c.type === "data-confirm-card") as { data: { summary: string } } | undefined;
    expect(card?.data.summary).toContain("上领子");
    expect(textOf(message)).not.toMatch(ENGLISH);
  });

  it("prepares the guide's 帮我新建订单：海澜，A01 男式衬衫，800 件，12 月 20 日交货", async () => {
    const cookie = await signIn("boss", "boss123");
    const { chunks, message } = await ask(cookie, "ex-guide-order", "帮我新建订单：海澜，A01 男式衬衫，800 件，12 月 20 日交货");
    const [part] = toolParts(message);
    expect(part).toMatchObject({ type: "tool-prepare_order", state: "output-available" });
    expect(part?.input).toMatchObject({ customer: "海澜", style: "A01", quantity: 800 });
    expect(String(part?.input.due_date)).toMatch(/^\d{4}-12-20$/);
    expect(chunks.some((c) => c.type === "data-confirm-card")).toBe(true);
  });

  it("asks back for what 帮我录入计件 leaves out, then prepares it from the answer", async () => {
    const cookie = await signIn("boss", "boss123");
    const first = await ask(cookie, "ex-ask", "帮我录入，张三今天做了50件");
    expect(toolParts(first.message)).toEqual([]);
    expect(textOf(first.message)).toContain("是哪道工序？");
    const res = await sendChat(cookie, "ex-ask", "领子", {
      messages: [
        { id: "u1", role: "user", parts: [{ type: "text", text: "帮我录入，张三今天做了50件" }] },
        first.message,
        { id: "u2", role: "user", parts: [{ type: "text", text: "领子" }] },
      ],
    });
    const second = await assembled(await readChunks(res));
    expect(toolParts(second)[0]).toMatchObject({
      type: "tool-prepare_piece_record",
      input: { employee: "张三", process: "领子", quantity: 50 },
    });
  });

  it("lists only open orders for 有哪些订单快到期了, the overdue ones apart", async () => {
    const cookie = await signIn("boss", "boss123");
    const { message } = await ask(cookie, "ex-soon", "有哪些订单快到期了");
    const [part] = toolParts(message);
    expect(part?.input).toMatchObject({ status: "open" });
    const orders = part?.output.orders as { status: string }[];
    expect(orders.every((o) => o.status === "pending" || o.status === "in_production")).toBe(true);
    expect(textOf(message)).toMatch(/^未来 7 天内（\d{4}-\d{2}-\d{2} 至 \d{4}-\d{2}-\d{2}）/);
  });

  it("tells staff what they may ask instead of an English refusal", async () => {
    const cookie = await signIn("staff", "staff123");
    const { message } = await ask(cookie, "ex-staff", "张敏这个月的工资");
    const text = textOf(message);
    expect(text).toContain("员工只能查看自己的记录");
    expect(text).not.toMatch(ENGLISH);
  });

  it.each([
    "张三这个月做了多少件",
    "帮我查一下张三这个月的计件",
    "下周要交的订单有哪些",
    "2026-001 做到多少件了",
    "这个月每个人做了多少件",
    "我三月的工资怎么算的",
    "海澜的订单",
    "领子多少钱一件",
    "有哪些员工",
  ])("answers %s with a tool the real registry accepts, in Chinese only", async (text) => {
    const cookie = await signIn("boss", "boss123");
    const { message } = await ask(cookie, `ex-${text.length}-${text.charCodeAt(0)}`, text);
    const [part] = toolParts(message);
    expect(part?.state).toBe("output-available");
    const reply = textOf(message);
    expect(reply.length).toBeGreaterThan(0);
    expect(reply).not.toMatch(/invalid_input|forbidden|undefined|Invalid/);
  });
});
