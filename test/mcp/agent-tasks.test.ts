import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, addMonths } from "../../src/business/local-time.ts";
import { shanghaiToday } from "../business/run.ts";
import { loadDemoKnowledge } from "../demo-knowledge.ts";
import { dbOf, keys } from "../fixtures.ts";
import { mcpClient } from "../helpers.ts";
import type { CallResult } from "./clients.ts";

/** The boss's `tools/list` before issue 45, in characters of its JSON (13 tools). */
const TOOLS_LIST_BEFORE = 40_611;

type Listed = { name: string; title?: string; description?: string };
type Structured = Record<string, unknown>;

/** Characters of a result as an agent receives it: its text, any other content item, and `structuredContent`. */
function size(result: CallResult): number {
  const content = (result.content as { type: string; text?: string }[]).reduce(
    (n, item) => n + (item.type === "text" ? (item.text ?? "").length : JSON.stringify(item).length),
    0,
  );
  return content + (result.structuredContent ? JSON.stringify(result.structuredContent).length : 0);
}

/**
 * The tool an agent would pick for a task from what `tools/list` says of each: the one whose
 * name, title and description hold most of the task's words.
 */
function choose(tools: Listed[], words: string[]): string {
  const scored = tools.map((tool) => {
    const said = `${tool.name} ${tool.title ?? ""} ${tool.description ?? ""}`.toLowerCase();
    return { name: tool.name, score: words.filter((word) => said.includes(word.toLowerCase())).length };
  });
  scored.sort((a, b) => b.score - a.score);
  if (scored[0]?.score === scored[1]?.score)
    throw new Error(`no one tool for ${words.join(", ")}: ${JSON.stringify(scored.slice(0, 3))}`);
  return scored[0]?.name ?? "";
}

async function sql<T>(query: string, ...params: (string | number)[]): Promise<T> {
  return (await dbOf("t-jinxiu")
    .prepare(query)
    .bind(...params)
    .first<T>()) as T;
}

interface Task {
  /** What the person asked. */
  asked: string;
  /** The words an agent matches against the tool list. */
  words: string[];
  tool: string;
  /** Characters of the same task's result(s) before issue 45. */
  before: number;
  /** Calls the tool (and whatever follows it), checks the answer it gives, and returns every result read. */
  run(call: (name: string, args: Record<string, unknown>) => Promise<CallResult>): Promise<CallResult[]>;
}

const today = shanghaiToday();
const structured = (result: CallResult) => result.structuredContent as Structured;

const TASKS: Task[] = [
  {
    asked: "这个月谁做的件数最多？",
    words: ["who made the most", "pieces", "this month"],
    tool: "query_piece_records",
    before: 15_854,
    async run(call) {
      const result = await call("query_piece_records", { period: "this_month", group_by: "employee", top: 3 });
      const { groups, summary } = structured(result) as { groups: { label: string; pieces: number }[]; summary: string };
      const best = await sql<{ name: string; pieces: number }>(
        `SELECT e.name, SUM(r.quantity) AS pieces FROM piece_records r JOIN employees e ON e.id = r.employee_id
          WHERE r.tenant_id = 't-jinxiu' AND r.work_date >= ?1 GROUP BY r.employee_id ORDER BY pieces DESC LIMIT 1`,
        `${today.slice(0, 7)}-01`,
      );
      expect(groups[0]).toMatchObject({ label: best.name, pieces: best.pieces });
      expect(summary).toContain(best.name);
      expect(summary).toContain("进行中");
      return [result];
    },
  },
  {
    asked: "哪些订单还没完成？最近要交的是哪张？",
    words: ["orders", "还没完成", "due", "days left"],
    tool: "query_orders",
    before: 3_886,
    async run(call) {
      const result = await call("query_orders", { status: "还没完成" });
      const { orders, summary } = structured(result) as {
        orders: { order_no: string; status: string; days_left: number; overdue: boolean }[];
        summary: string;
      };
      expect(orders.every((o) => o.status === "pending" || o.status === "in_production")).toBe(true);
      const next = orders.find((o) => !o.overdue);
      expect(summary).toContain(`${next?.order_no} 还有 ${next?.days_left} 天`);
      return [result];
    },
  },
  {
    asked: "张三上个月实发多少？",
    words: ["net pay", "实发", "month", "employee"],
    tool: "query_payroll",
    before: 2_296,
    async run(call) {
      const result = await call("query_payroll", { employee: "张三", period: "last_month" });
      const { payslips, summary, period } = structured(result) as {
        payslips: { net_pay: { yuan: string } }[];
        summary: string;
        period: { in_progress: boolean };
      };
      const month = addMonths(today, -1);
      const wage = await sql<{ cents: number }>(
        "SELECT SUM(quantity * unit_price_cents) AS cents FROM piece_records WHERE employee_id = 'e-jx-zhangsan' AND work_date LIKE ?1",
        `${month}-%`,
      );
      const adjusted = await sql<{ cents: number }>(
        "SELECT COALESCE(SUM(CASE kind WHEN 'allowance' THEN amount_cents ELSE -amount_cents END), 0) AS cents FROM payroll_adjustments WHERE employee_id = 'e-jx-zhangsan' AND month = ?1",
        month,
      );
      const net = ((wage.cents + adjusted.cents) / 100).toFixed(2);
      expect(payslips[0]?.net_pay.yuan).toBe(net);
      expect(period.in_progress).toBe(false);
      expect(summary).toContain("上个月");
      return [result];
    },
  },
  {
    asked: "计件工资怎么算？",
    words: ["manuals", "faqs", "question", "cite"],
    tool: "knowledge_search",
    before: 2_427,
    async run(call) {
      const result = await call("knowledge_search", { query: "计件工资怎么算" });
      const { results } = structured(result) as {
        results: { source: string; citation: string; content: string; knowledge_base: { name: string }; uri: string | null }[];
      };
      const faq = results.find((hit) => hit.source === "faq");
      const manual = results.find((hit) => hit.source === "document");
      expect(faq?.knowledge_base.name).toMatch(/\S/);
      expect(faq?.citation).toContain("FAQ");
      expect(manual?.content).toContain("计件工资");
      expect(manual?.uri).toMatch(/^weft:\/\//);
      return [result];
    },
  },
  {
    asked: "单价可以改吗？改了以后以前的工资会变吗？",
    words: ["manuals", "faqs", "question", "passages"],
    tool: "knowledge_search",
    before: 1_334,
    async run(call) {
      const result = await call("knowledge_search", { query: "单价可以改吗" });
      const { results } = structured(result) as { results: { citation: string; content: string }[] };
      expect(results[0]?.citation).toContain("修改单价");
      expect(results[0]?.content).toContain("不会因为改价而变动");
      return [result];
    },
  },
  {
    asked: "上领子的单价是多少？",
    words: ["unit price", "单价", "process"],
    tool: "query_processes",
    before: 394,
    async run(call) {
      const result = await call("query_processes", { name_contains: "上领子" });
      const { processes } = structured(result) as { processes: { name: string; unit_price: { yuan: string } }[] };
      expect(processes.map((p) => [p.name, p.unit_price.yuan])).toContainEqual(["上领子", "0.80"]);
      return [result];
    },
  },
  {
    asked: "给张三记50件上领子",
    words: ["登记计件", "record", "pieces", "prepare"],
    tool: "prepare_piece_record",
    before: 2_971,
    async run(call) {
      const prepared = await call("prepare_piece_record", { employee: "张三", process: "上领子", quantity: 50 });
      const pending = structured(prepared) as { action_id: string; confirm_by: string; tell_user: string; expires_local: string };
      // The boss's development key may confirm: the result says so, and what to tell the person.
      expect(pending.confirm_by).toBe("agent");
      expect(pending.tell_user).toMatch(/10 分钟内有效（到 \d\d:\d\d）/);
      expect(pending.expires_local).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
      const confirmed = await call("confirm_action", { action_id: pending.action_id });
      const done = structured(confirmed) as { status: string; tell_user: string };
      expect(done.status).toBe("confirmed");
      const row = await sql<{ order_no: string }>(
        "SELECT o.order_no FROM piece_records r JOIN orders o ON o.id = r.order_id WHERE r.action_id = ?1",
        pending.action_id,
      );
      expect(done.tell_user).toContain(row.order_no);
      return [prepared, confirmed];
    },
  },
  {
    asked: "新建订单：海澜之家，A01，300 件，下个月 20 号交",
    words: ["新建订单", "new order", "prepare"],
    tool: "prepare_order",
    before: 2_526,
    async run(call) {
      const due = addDays(`${addMonths(today, 1)}-01`, 19);
      const prepared = await call("prepare_order", { customer: "海澜之家", style: "A01", quantity: 300, due_date: due });
      const { action_id } = structured(prepared) as { action_id: string };
      const confirmed = await call("confirm_action", { action_id });
      const row = await sql<{ order_no: string }>("SELECT order_no FROM orders WHERE action_id = ?1", action_id);
      expect((structured(confirmed) as { tell_user: string }).tell_user).toContain(`新订单号 ${row.order_no}`);
      return [prepared, confirmed];
    },
  },
  {
    asked: "衣服跳针怎么办？",
    words: ["跳针", "diagnosis", "consultation", "step by step"],
    tool: "initiate_session",
    before: 662,
    async run(call) {
      const result = await call("initiate_session", { user_query: "衣服跳针怎么办" });
      const step = structured(result) as { current_step: string; options: unknown[] };
      expect(step.current_step).toContain("跳针");
      expect(step.options.length).toBeGreaterThan(1);
      return [result];
    },
  },
];

describe("nine everyday tasks, as an agent does them over /mcp", () => {
  let client: Client;
  let tools: Listed[];
  let listSize = 0;
  const sizes: { asked: string; tool: string; before: number; after: number }[] = [];

  beforeAll(async () => {
    await loadDemoKnowledge();
    client = await mcpClient(keys.boss);
    const listed = await client.listTools();
    listSize = JSON.stringify(listed).length;
    tools = listed.tools;
  });

  afterAll(async () => {
    await client.close();
    const before = sizes.reduce((n, s) => n + s.before, 0);
    const after = sizes.reduce((n, s) => n + s.after, 0);
    const rows = sizes.map(
      (s) => `  ${s.tool.padEnd(22)} ${String(s.before).padStart(6)} → ${String(s.after).padStart(5)}  ${s.asked}`,
    );
    console.info(
      [
        `tools/list for the boss: ${TOOLS_LIST_BEFORE} → ${listSize} characters`,
        "results, characters before → after:",
        ...rows,
        `  ${"all nine".padEnd(22)} ${String(before).padStart(6)} → ${String(after).padStart(5)} (${((after / before) * 100).toFixed(0)}%)`,
      ].join("\n"),
    );
  });

  it("lists the boss's tools in at most half the characters they took before", () => {
    expect(listSize).toBeGreaterThan(0);
    expect(listSize).toBeLessThanOrEqual(TOOLS_LIST_BEFORE / 2);
  });

  it.each(TASKS)("$asked", async (task) => {
    const chosen = choose(tools, task.words);
    expect(chosen).toBe(task.tool);
    const call = async (name: string, args: Record<string, unknown>) => {
      expect(tools.map((t) => t.name)).toContain(name);
      const result = (await client.callTool({ name, arguments: args })) as CallResult;
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      return result;
    };
    const results = await task.run(call);
    sizes.push({ asked: task.asked, tool: task.tool, before: task.before, after: results.reduce((n, r) => n + size(r), 0) });
  });

  it("answers all nine from results at most a third of the size they had before", () => {
    expect(sizes).toHaveLength(TASKS.length);
    const before = sizes.reduce((n, s) => n + s.before, 0);
    const after = sizes.reduce((n, s) => n + s.after, 0);
    expect(after).toBeLessThanOrEqual(before / 3);
  });
});
