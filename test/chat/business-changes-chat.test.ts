import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { sendChat } from "./chat-api.ts";
import { signIn } from "./sign-in.ts";
import { assembled, readChunks, textOf } from "./stream.ts";

// A boss's sentences that change the workshop's own data, through /api/chat with the offline model
// and parsed by the ai package: each prepares prepare_business_change and shows a confirm card with
// the old and new values side by side; nothing is written before the card's yes.

type ToolPart = { type: string; state: string; input: Record<string, unknown> };
type Card = { data: { summary: string; preview: { label: string; value: string }[] } };

async function card(chatId: string, text: string) {
  const cookie = await signIn("boss", "boss123");
  const chunks = await readChunks(await sendChat(cookie, chatId, text));
  const message: UIMessage = await assembled(chunks);
  const part = message.parts.find((p) => p.type.startsWith("tool-")) as unknown as ToolPart | undefined;
  const found = chunks.find((c) => c.type === "data-confirm-card") as unknown as Card | undefined;
  return { part, card: found?.data, text: textOf(message) };
}

describe("changing the workshop's own data in the chat", () => {
  it("2026-001 做完了 gives a card moving the order from 生产中 to 已完成", async () => {
    const { part, card: shown } = await card("biz-done", "2026-001 做完了");
    expect(part).toMatchObject({ type: "tool-prepare_business_change", state: "output-available" });
    expect(part?.input).toMatchObject({ change: "order", order: "2026-001", status: "completed" });
    expect(shown?.preview).toContainEqual({ label: "状态", value: "生产中 → 已完成" });
  });

  it("给李娟这个月加 50 块全勤奖 gives a card with the 补贴 and her 实发 before and after", async () => {
    const { part, card: shown } = await card("biz-bonus", "给李娟这个月加 50 块全勤奖");
    expect(part?.input).toMatchObject({
      change: "adjustment_add",
      employee: "李娟",
      kind: "allowance",
      amount: 50,
      reason: "全勤奖",
    });
    expect(shown?.preview).toContainEqual({ label: "类型", value: "补贴" });
    expect(shown?.preview.find((f) => f.label === "当月实发")?.value).toMatch(/→/);
  });

  it.each([
    ["把钉扣停用", { change: "process_disable", process: "钉扣" }],
    ["A01加一道工序打枣，单价5毛", { change: "process_add", style: "A01", name: "打枣", unit_price: 0.5 }],
    ["新加一个款式A03，童装衬衫", { change: "style_add", code: "A03", name: "童装衬衫" }],
    ["把车间名称改成锦绣服装厂", { change: "workshop", name: "锦绣服装厂" }],
  ])("%s gives a card to confirm", async (text, input) => {
    const { part, card: shown } = await card(`biz-${text.length}-${input.change}`, text);
    expect(part).toMatchObject({ type: "tool-prepare_business_change", state: "output-available", input });
    expect(shown?.summary).toBeTruthy();
  });

  it("上领子的改价记录 lists its prices, each from its day", async () => {
    const { part, text } = await card("biz-history", "上领子的改价记录");
    expect(part).toMatchObject({ type: "tool-query_processes", input: { name_contains: "上领子", with_history: true } });
    expect(text).toContain("改价记录：最初 0.80 元");
  });
});
