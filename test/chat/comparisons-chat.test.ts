import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { grouped } from "../../src/chat/offline/tables.ts";
import { sendChat } from "./chat-api.ts";
import { signIn } from "./sign-in.ts";
import { assembled, readChunks, textOf } from "./stream.ts";

type ToolPart = { type: string; state: string; input: Record<string, unknown>; output: Record<string, unknown> };

function toolParts(message: UIMessage, name: string): ToolPart[] {
  return message.parts.filter((p) => p.type === `tool-${name}`) as unknown as ToolPart[];
}

async function ask(cookie: string, chatId: string, text: string): Promise<UIMessage> {
  return assembled(await readChunks(await sendChat(cookie, chatId, text)));
}

const totals = (part: ToolPart | undefined) => part?.output.totals as { pieces: number; net_pay: { cents: number } };

describe("comparing two periods through /api/chat with the offline model", () => {
  it("answers 张三上个月比这个月多做了多少件 with both months' totals, the difference and a table", async () => {
    const cookie = await signIn("boss", "boss123");
    const message = await ask(cookie, "compare-pieces", "张三上个月比这个月多做了多少件");
    const [last, now] = toolParts(message, "query_piece_records");
    expect(last?.input).toEqual({ employee: "张三", period: "last_month" });
    expect(now?.input).toEqual({ employee: "张三", period: "this_month" });
    // The figures are those the single-period questions give.
    const alone = async (text: string) =>
      totals(toolParts(await ask(cookie, `compare-alone-${crypto.randomUUID()}`, text), "query_piece_records")[0]).pieces;
    const [a, b] = [await alone("张三上个月做了多少件"), await alone("张三这个月做了多少件")];
    expect([totals(last).pieces, totals(now).pieces]).toEqual([a, b]);
    const diff = a - b;
    const said =
      diff === 0 ? "上个月和本月一样多" : `上个月比本月${diff > 0 ? "多做" : "少做"} ${grouped(String(Math.abs(diff)))} 件`;
    const lines = textOf(message).split("\n");
    expect(lines[0]).toBe(`张三上个月做了 ${grouped(String(a))} 件，本月做了 ${grouped(String(b))} 件：${said}。`);
    expect(lines[2]).toBe("| 时段 | 日期 | 件数 | 金额 |");
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^\\| \\*\\*相差\\*\\* \\|  \\| ${diff > 0 ? "\\+" : diff < 0 ? "-" : ""}${grouped(String(Math.abs(diff)))} \\|`,
      ),
    );
  });

  it("answers 李娟这个月比上个月多挣了多少 from two months' payslips", async () => {
    const cookie = await signIn("boss", "boss123");
    const message = await ask(cookie, "compare-pay", "李娟这个月比上个月多挣了多少");
    const [now, last] = toolParts(message, "query_payroll");
    expect(now?.input).toMatchObject({ employee: "李娟" });
    expect(last?.input).toMatchObject({ employee: "李娟" });
    expect(now?.input.month).not.toBe(last?.input.month);
    const [a, b] = [totals(now).net_pay.cents, totals(last).net_pay.cents];
    const said = a === b ? "本月和上个月一样多" : `本月比上个月${a > b ? "多挣" : "少挣"}`;
    const text = textOf(message);
    expect(text.split("\n")[0]).toMatch(
      /^李娟本月（\d{4}-\d{2}）实发 ¥[\d,]+\.\d{2}，上个月（\d{4}-\d{2}）实发 ¥[\d,]+\.\d{2}：/,
    );
    expect(text.split("\n")[0]).toContain(said);
    expect(text).toContain("| 月份 | 件数 | 计件工资 | 补贴 | 扣款 | 实发 |");
  });

  it("lets staff compare their own months, and says in words that a colleague's are not theirs to see", async () => {
    const cookie = await signIn("staff", "staff123");
    const own = await ask(cookie, "compare-own", "我这个月比上个月多做了多少件");
    const calls = toolParts(own, "query_piece_records");
    expect(calls.map((c) => c.input)).toEqual([{ period: "this_month" }, { period: "last_month" }]);
    expect(calls.every((c) => c.output.scope === "own")).toBe(true);
    expect(textOf(own)).toMatch(/^你本月做了 [\d,]+ 件，上个月做了 [\d,]+ 件：/);

    const other = await ask(cookie, "compare-other", "张三上个月比这个月多做了多少件");
    // One refused call, no second, and the refusal in Chinese words.
    expect(other.parts.filter((p) => p.type === "tool-query_piece_records")).toHaveLength(1);
    expect(textOf(other)).toMatch(/[\u4e00-\u9fff]/);
    expect(textOf(other)).not.toMatch(/forbidden|Staff|张三上个月做了/);
  });

  it("carries the person and period into a follow-up that compares: 比这个月多多少", async () => {
    const cookie = await signIn("boss", "boss123");
    await ask(cookie, "compare-follow", "张三上个月做了多少件");
    const message = await ask(cookie, "compare-follow", "比这个月多多少");
    expect(toolParts(message, "query_piece_records").map((c) => c.input)).toEqual([
      { employee: "张三", period: "last_month" },
      { employee: "张三", period: "this_month" },
    ]);
    expect(textOf(message)).toMatch(/^张三上个月做了 [\d,]+ 件，本月做了 [\d,]+ 件：/);
  });
});
