/// <reference types="vite/client" />

import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusalWords } from "../../src/chat/offline/questions.ts";
import { dbOf, keys } from "../fixtures.ts";
import { call } from "../helpers.ts";
import { sendChat } from "./chat-api.ts";
import { browserCall, signIn } from "./sign-in.ts";
import { assembled, readChunks, textOf } from "./stream.ts";

// Every sentence the demo guide and its FAQ tell people to type into the chat, sent through
// /api/chat with the offline model as the person the guide speaks to (我… as staff, the rest as the
// boss), each checked for the tool and arguments it must call or the words it must say. The list
// is read from the guide itself, so a sentence added there without a case here fails.
const GUIDE = import.meta.glob<string>("../../knowledge/docs/车间系统使用手册/*.md", {
  query: "?raw",
  import: "default",
  eager: true,
});
const FAQ = import.meta.glob<string>("../../knowledge/faq/车间常见问题.json", { query: "?raw", import: "default", eager: true });

const faqAnswers = Object.values(FAQ).flatMap((raw) =>
  (JSON.parse(raw) as { entries: { answer: string }[] }).entries.map((e) => e.answer),
);

/**
 * The quoted words the guide tells people to say: runs of “…” after 说 / 问 / 例如 (one after
 * another, or joined by 或 and 、).
 */
function quotedExamples(text: string): string[] {
  const runs = text.matchAll(/(?:说|问|例如|回一句订单号（例如)((?:“[^”]+”(?:或|、)?)+)/g);
  return [...runs].flatMap((run) => [...(run[1] as string).matchAll(/“([^”]+)”/g)].map((q) => q[1] as string));
}

// Quotes after those words that are not sentences to type: each says why, and where it is checked.
const NOT_SENTENCES: Record<string, string> = {
  "A01 男式衬衫": "a style named inside the new-order sentence (帮我新建订单：…), checked there",
  已逾期: "a word of the reply to 有哪些订单快到期了, not something to type",
  领子: "part of a name that finds 上领子; checked in examples-chat.test.ts (帮我录入，张三今天做了50件领子)",
  "2026-001": "an answer to a card's question; checked below with the card it answers",
  重新启用钉扣: "needs 钉扣 stopped first; checked below, after 把钉扣停用 is confirmed",
};

type Role = "boss" | "staff";
type Expected = { tool: string; input: Record<string, unknown>; card?: true } | { says: string[] } | { cites: string };

const tool = (name: string, input: Record<string, unknown>): Expected => ({ tool: name, input });
const card = (name: string, input: Record<string, unknown>): Expected => ({ tool: name, input, card: true });
const MONTH = expect.stringMatching(/^\d{4}-\d{2}$/);
const MARCH = expect.stringMatching(/^\d{4}-03$/);
const DAY = expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/);

// [sentence, who says it, what must happen]
const CASES: [string, Role, Expected][] = [
  ["怎么新建订单", "boss", { cites: "订单管理 › 新建订单" }],
  ["张敏这个月做了多少件", "boss", tool("query_piece_records", { employee: "张敏", period: "this_month" })],
  ["有哪些员工", "boss", tool("query_employees", {})],
  ["A01 的工序和单价", "boss", tool("query_processes", { style: "A01" })],
  ["上领子的单价", "boss", tool("query_processes", { name_contains: "上领子" })],
  [
    "帮我新建订单：海澜，A01 男式衬衫，800 件，12 月 20 日交货",
    "boss",
    card("prepare_order", { customer: "海澜", style: "A01", quantity: 800, due_date: expect.stringMatching(/-12-20$/) }),
  ],
  [
    "把订单2026-001的数量改成9000",
    "boss",
    card("prepare_business_change", { change: "order", order: "2026-001", quantity: 9000 }),
  ],
  ["2026-001 推迟到12月20日交货", "boss", card("prepare_business_change", { change: "order", order: "2026-001", due_date: DAY })],
  ["2026-001 做完了", "boss", card("prepare_business_change", { change: "order", order: "2026-001", status: "completed" })],
  [
    "把 2026-004 取消，客户不要了",
    "boss",
    card("prepare_business_change", { change: "order", order: "2026-004", status: "cancelled", reason: "客户不要了" }),
  ],
  [
    "给李娟这个月加50块全勤奖",
    "boss",
    card("prepare_business_change", {
      change: "adjustment_add",
      employee: "李娟",
      kind: "allowance",
      amount: 50,
      month: MONTH,
      reason: "全勤奖",
    }),
  ],
  [
    "扣张敏20块",
    "boss",
    card("prepare_business_change", { change: "adjustment_add", employee: "张敏", kind: "deduction", amount: 20, month: MONTH }),
  ],
  [
    "新来了一个员工叫王强，电话13800138000",
    "boss",
    card("prepare_business_change", { change: "employee_add", name: "王强", phone: "13800138000" }),
  ],
  ["哪些订单还没完成", "boss", tool("query_orders", { status: "open" })],
  ["海澜的订单有哪些", "boss", tool("query_orders", { customer_contains: "海澜" })],
  ["下周要交的订单有哪些", "boss", tool("query_orders", { status: "open", due_from: DAY, due_to: DAY })],
  ["2026-001 做到多少件了", "boss", tool("query_orders", { order: "2026-001" })],
  ["上领子在2026-001登记了多少件", "boss", tool("query_piece_records", { order: "2026-001", process: "上领子" })],
  ["有哪些订单快到期了", "boss", tool("query_orders", { status: "open", due_to: DAY })],
  [
    "上领子改成九毛，从下个月一号起",
    "boss",
    card("prepare_business_change", { change: "price", process: "上领子", unit_price: 0.9, date: DAY }),
  ],
  [
    "A01加一道工序打枣，单价5毛",
    "boss",
    card("prepare_business_change", { change: "process_add", style: "A01", name: "打枣", unit_price: 0.5 }),
  ],
  ["新加一个款式A03，童装衬衫", "boss", card("prepare_business_change", { change: "style_add", code: "A03", name: "童装衬衫" })],
  ["把钉扣停用", "boss", card("prepare_business_change", { change: "process_disable", process: "钉扣" })],
  ["上领子的改价记录", "boss", tool("query_processes", { name_contains: "上领子", with_history: true })],
  [
    "帮我登记：今天 2026-001 上领子 80 件",
    "staff",
    card("prepare_piece_record", { process: "上领子", quantity: 80, order: "2026-001", work_date: DAY }),
  ],
  ["我今天上领子80件，帮我登记", "staff", card("prepare_piece_record", { process: "上领子", quantity: 80, work_date: DAY })],
  ["给张三记50件上领子", "boss", card("prepare_piece_record", { employee: "张三", process: "上领子", quantity: 50 })],
  ["今天每个人做了多少件", "boss", tool("query_piece_records", { period: "today", group_by: "employee" })],
  ["这个月每个人做了多少件", "boss", tool("query_piece_records", { period: "this_month", group_by: "employee" })],
  ["我这个月做了多少件", "staff", tool("query_piece_records", { period: "this_month" })],
  ["李娟这个月做了多少件", "boss", tool("query_piece_records", { employee: "李娟", period: "this_month" })],
  ["上领子这周一共做了多少", "boss", tool("query_piece_records", { process: "上领子", period: "this_week" })],
  ["我这个月的工资", "staff", tool("query_payroll", { month: MONTH })],
  ["我三月的工资怎么算的", "staff", tool("query_payroll", { month: MARCH })],
  ["这个月每个人的工资", "boss", tool("query_payroll", { month: MONTH })],
  ["裤腰的地方老是跳针", "boss", tool("initiate_session", { user_query: "裤腰的地方老是跳针" })],
];

const PASSWORDS: Record<Role, string> = { boss: "boss123", staff: "staff123" };
const cookies: Partial<Record<Role, string>> = {};
let guideKb = "";

// A second open order of style A01, so that a piece record of an A01 process asks which order.
const SECOND_A01 = { id: "o-guide-a01", no: "2026-902" };

beforeAll(async () => {
  for (const role of ["boss", "staff"] as const) cookies[role] = await signIn(role, PASSWORDS[role]);
  // The guide as `npm run dev` loads it, in a base of its own: the answers to how-to questions cite it.
  const kb = await call("/api/knowledge-bases", {
    method: "POST",
    key: keys.boss,
    body: JSON.stringify({ name: "指南示例用的手册" }),
  });
  guideKb = (await kb.json<{ id: string }>()).id;
  const documents = Object.entries(GUIDE).map(([path, content]) => ({ filename: path.split("/").at(-1), content }));
  const docs = await call(`/api/knowledge-bases/${guideKb}/documents`, {
    method: "POST",
    key: keys.boss,
    body: JSON.stringify({ documents }),
  });
  if (docs.status >= 300) throw new Error(await docs.text());
});

afterAll(async () => {
  await call(`/api/knowledge-bases/${guideKb}`, { method: "DELETE", key: keys.boss });
});

async function ask(role: Role, chatId: string, text: string, extra: Record<string, unknown> = {}) {
  const chunks = await readChunks(await sendChat(cookies[role] as string, chatId, text, extra));
  return { chunks, message: await assembled(chunks) };
}

type ToolPart = { type: string; state: string; input: Record<string, unknown> };
const toolParts = (message: UIMessage) => message.parts.filter((p) => p.type.startsWith("tool-")) as unknown as ToolPart[];

describe("the demo guide's chat examples", () => {
  it("are every sentence the guide and its FAQ quote after 说, 问 or 例如", () => {
    const quoted = new Set([...Object.values(GUIDE), ...faqAnswers].flatMap(quotedExamples));
    const listed = new Set([...CASES.map(([sentence]) => sentence), ...Object.keys(NOT_SENTENCES)]);
    expect([...quoted].filter((q) => !listed.has(q))).toEqual([]);
    expect([...listed].filter((q) => !quoted.has(q))).toEqual([]);
  });

  it.each(CASES)("%s (as %s)", async (sentence, role, expected) => {
    const extra = "cites" in expected ? { kbIds: [guideKb] } : {};
    const { chunks, message } = await ask(role, crypto.randomUUID(), sentence, extra);
    const text = textOf(message);
    expect(text).not.toContain("我是离线模型");
    if ("cites" in expected) {
      expect(toolParts(message)).toEqual([]);
      expect(text).toContain(expected.cites);
      return;
    }
    if ("says" in expected) {
      expect(toolParts(message)).toEqual([]);
      for (const words of expected.says) expect(text).toContain(words);
      return;
    }
    const [part] = toolParts(message);
    expect(part).toMatchObject({ type: `tool-${expected.tool}`, state: "output-available" });
    expect(part?.input).toEqual(expected.input);
    expect(chunks.some((c) => c.type === "data-confirm-card")).toBe(expected.card === true);
    // A staff member's sentence answers about themselves, never refused as someone else's.
    if (role === "staff") expect(text).not.toContain("员工只能查看自己的记录");
  });
});

describe("the guide's answer to a card's question", () => {
  beforeAll(async () => {
    await dbOf("t-jinxiu")
      .prepare(
        "INSERT INTO orders (id, tenant_id, order_no, customer, style_id, quantity, due_date, status) VALUES (?1, 't-jinxiu', ?2, '海澜', 'st-jx-a01', 800, '2027-02-01', 'pending')",
      )
      .bind(SECOND_A01.id, SECOND_A01.no)
      .run();
  });

  afterAll(async () => {
    await dbOf("t-jinxiu").prepare("DELETE FROM orders WHERE id = ?1").bind(SECOND_A01.id).run();
  });

  it("prepares the card again for 2026-001 typed after 给张三记50件上领子 asks which order", async () => {
    const chatId = crypto.randomUUID();
    const first = await ask("boss", chatId, "给张三记50件上领子");
    const asked = first.chunks.find((c) => c.type === "data-confirm-card") as
      | { data: { ambiguities: { field: string; candidates: unknown[] }[] } }
      | undefined;
    expect(asked?.data.ambiguities[0]).toMatchObject({ field: "order" });
    expect(asked?.data.ambiguities[0]?.candidates.length).toBeGreaterThanOrEqual(2);
    const second = await ask("boss", chatId, "2026-001");
    const [part] = toolParts(second.message);
    expect(part).toMatchObject({ type: "tool-prepare_piece_record", state: "output-available" });
    expect(part?.input).toMatchObject({ employee: "张三", process: "上领子", quantity: 50, order: "o-jx-1" });
    expect(second.chunks.some((c) => c.type === "data-confirm-card")).toBe(true);
  });
});

describe("the guide's way back for a stopped process", () => {
  it("prepares 重新启用钉扣 once 把钉扣停用 was confirmed, and starts it again on a yes", async () => {
    const stop = async (sentence: string, change: string) => {
      const { chunks, message } = await ask("boss", crypto.randomUUID(), sentence);
      const [part] = toolParts(message);
      expect(part).toMatchObject({
        type: "tool-prepare_business_change",
        state: "output-available",
        input: { change, process: "钉扣" },
      });
      const shown = chunks.find((c) => c.type === "data-confirm-card") as { id: string } | undefined;
      expect(shown).toBeTruthy();
      const confirmed = await browserCall(`/api/actions/${shown?.id}/confirm`, cookies.boss as string, { method: "POST" });
      expect(confirmed.status).toBe(200);
    };
    await stop("把钉扣停用", "process_disable");
    expect(
      await dbOf("t-jinxiu")
        .prepare("SELECT active FROM processes WHERE name = '钉扣' AND style_id = 'st-jx-a01'")
        .first("active"),
    ).toBe(0);
    await stop("重新启用钉扣", "process_enable");
    expect(
      await dbOf("t-jinxiu")
        .prepare("SELECT active FROM processes WHERE name = '钉扣' AND style_id = 'st-jx-a01'")
        .first("active"),
    ).toBe(1);
  });
});

describe("the chat's refusals of what the guide says cannot be done", () => {
  it("name who does it outside Weft, never a page Weft does not have", () => {
    const old = refusalWords(
      "invalid_input: work_date 2026-01-02 is more than 62 days ago; ask the boss to correct old records.",
      true,
    );
    expect(old).toBe("这一天太久以前了（超过 62 天），不能登记：Weft 里没有补登更早计件的办法，请找老板在 Weft 之外处理。");
    const disabled = refusalWords("unprocessable: The process 锁眼 (A01) is disabled.", true);
    expect(disabled).toBe("这道工序已停用，不能再登记：请换一道工序；要重新启用，请老板在对话里说“重新启用”加这道工序的名字。");
    expect(`${old}${disabled}`).not.toContain("页面");
  });
});
