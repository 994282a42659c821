// The README's "first five minutes", as a newcomer follows it: each thing it says to ask, as the
// person it says to sign in as, with the offline model, and its MCP call.

import { env } from "cloudflare:workers";
import type { UIMessage } from "ai";
import { beforeAll, describe, expect, it } from "vitest";
import { sendChat } from "./chat/chat-api.ts";
import { browserCall, ORIGIN, signIn } from "./chat/sign-in.ts";
import { assembled, readChunks, textOf } from "./chat/stream.ts";
import { loadDemoKnowledge } from "./demo-knowledge.ts";
import { keys, logins } from "./fixtures.ts";
import { call, callJson, mcpClient } from "./helpers.ts";

type ToolPart = { type: string; state: string; input: Record<string, unknown>; output: Record<string, unknown> };

async function ask(cookie: string, text: string) {
  const chunks = await readChunks(await sendChat(cookie, crypto.randomUUID(), text));
  return { chunks, message: await assembled(chunks) };
}

function toolPart(message: UIMessage, name: string): ToolPart {
  const part = message.parts.find((p) => p.type === `tool-${name}`);
  if (!part) throw new Error(`no ${name} call in ${JSON.stringify(message.parts).slice(0, 500)}`);
  return part as unknown as ToolPart;
}

/** The knowledge `npm run dev` loads, for the README's questions that are answered from it. */
beforeAll(loadDemoKnowledge);

const readme = env.TEST_DOCS.find((page) => page.path === "README.md")?.content ?? "";

describe("the README's first five minutes in the browser", () => {
  it("names the demo sign-ins and keys the tests below use", () => {
    for (const login of [logins.boss, logins.staff]) expect(readme).toContain(`\`${login.username}\` / \`${login.password}\``);
    expect(readme).toContain(`Authorization: Bearer ${keys.staff}`);
    expect(readme).toContain(`Authorization: Bearer ${keys.boss}`);
    for (const question of [
      "张三这个月做了多少件",
      "我这个月的工资是多少",
      "衣服跳针怎么办",
      "给张三记50件上领子",
      "怎么创建订单",
      "计件工资怎么算",
    ]) {
      expect(readme).toContain(question);
    }
  });

  it("张三这个月做了多少件, as the boss: his piece records this month, with totals", async () => {
    const { message } = await ask(await signIn(logins.boss.username, logins.boss.password), "张三这个月做了多少件");
    const query = toolPart(message, "query_piece_records");
    expect(query.input).toEqual({ employee: "张三", period: "this_month" });
    expect(query.state).toBe("output-available");
    expect((query.output.totals as { pieces: number }).pieces).toBeGreaterThan(0);
    expect(textOf(message)).toContain("合计");
  });

  it("我这个月的工资是多少, as staff: only her own pay", async () => {
    const { message } = await ask(await signIn(logins.staff.username, logins.staff.password), "我这个月的工资是多少");
    const payroll = toolPart(message, "query_payroll");
    expect(payroll.state).toBe("output-available");
    const rows = payroll.output.payslips as { employee: { name: string } }[];
    expect(rows.map((row) => row.employee.name)).toEqual(["李娟"]);
  });

  it("衣服跳针怎么办 starts a consultation on skipped stitches with options to pick", async () => {
    const { message } = await ask(await signIn(logins.boss.username, logins.boss.password), "衣服跳针怎么办");
    const session = toolPart(message, "initiate_session");
    expect(session.output).toMatchObject({ is_complete: false });
    expect(String(session.output.current_step)).toContain("跳针");
    expect((session.output.options as unknown[]).length).toBeGreaterThan(1);
  });

  it("给张三记50件上领子 shows a confirm card of 40.00 元 that writes only when confirmed", async () => {
    const cookie = await signIn(logins.boss.username, logins.boss.password);
    const { chunks } = await ask(cookie, "给张三记50件上领子");
    const card = chunks.find((c) => c.type === "data-confirm-card") as { id: string; data: Record<string, unknown> };
    expect(card.data).toMatchObject({ status: "pending", summary: expect.stringContaining("张三 上领子 50 件") });
    expect(JSON.stringify(card.data.preview)).toContain("40.00");
    const pending = await browserCall(`/api/actions/${card.id}`, cookie);
    expect(await pending.json()).toMatchObject({ status: "pending" });
    const confirmed = await browserCall(`/api/actions/${card.id}/confirm`, cookie, { method: "POST" });
    expect(await confirmed.json()).toMatchObject({ action_id: card.id, status: "confirmed" });
  });

  it("怎么创建订单 answers from the workshop guide and cites it", async () => {
    const { message } = await ask(await signIn(logins.boss.username, logins.boss.password), "怎么创建订单");
    const answer = textOf(message);
    expect(answer).toContain("新建订单");
    expect(answer).toMatch(/\[1\]/);
  });
});

describe("the README's own workshop", () => {
  it("signs a workshop up, whose guide and empty records answer, and whose boss adds a staff member who sees her own", async () => {
    expect(readme).toContain("http://localhost:8787/sign-up");
    for (const words of [
      "怎么给员工开账号",
      "这个月的计件",
      "设置 → 人员",
      "新建员工档案",
      "我这个月做了多少件",
      "设置 → 密码",
    ]) {
      expect(readme).toContain(words);
    }
    const signedUp = await call("/api/workshops", {
      method: "POST",
      headers: { Origin: ORIGIN },
      body: JSON.stringify({ workshop_name: "新星服装厂", name: "刘老板", username: "readme-liu", password: "new-star-2026" }),
    });
    expect(signedUp.status).toBe(201);
    const boss = (signedUp.headers.get("Set-Cookie") ?? "").split(";")[0] as string;
    const guide = textOf((await ask(boss, "怎么给员工开账号")).message);
    expect(guide).toContain("添加人员");
    expect(guide).toMatch(/\[1\]/);
    expect(textOf((await ask(boss, "这个月的计件")).message)).toMatch(
      /^全车间，本月（\d{4}-\d{2}-01 至 \d{2}-\d{2}，进行中）：共 0 件，计 0\.00 元（0 条记录）。/,
    );

    const added = await browserCall("/api/people", boss, {
      method: "POST",
      body: JSON.stringify({ name: "李娟", username: "readme-lijuan", role: "staff", new_employee: true }),
    });
    const { set_password_link } = await added.json<{ set_password_link: { url: string } }>();
    const token = set_password_link.url.split("#token=")[1];
    const set = await call("/api/auth/set-password", {
      method: "POST",
      headers: { Origin: ORIGIN },
      body: JSON.stringify({ token, password: "lijuan-pass-1" }),
    });
    expect(set.status).toBe(200);
    const staff = await signIn("readme-lijuan", "lijuan-pass-1");
    const { message } = await ask(staff, "我这个月做了多少件");
    expect(toolPart(message, "query_piece_records").output).toMatchObject({ scope: "own", totals: { pieces: 0 } });
    expect(textOf(message)).toMatch(/^你，本月（.*，进行中）：共 0 件，计 0\.00 元（0 条记录）。/);
  });
});

describe("the README's first MCP call", () => {
  it("knowledge_search 计件工资怎么算 with top_k 2: two passages with scores, bases, citations and a link", async () => {
    const client = await mcpClient(keys.staff);
    const result = await client.callTool({ name: "knowledge_search", arguments: { query: "计件工资怎么算", top_k: 2 } });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as {
      summary: string;
      results: { score: number; content: string; citation: string; knowledge_base: { name: string }; uri: string | null }[];
    };
    expect(structured.results).toHaveLength(2);
    for (const hit of structured.results) {
      expect(hit.score).toBeGreaterThanOrEqual(0.5);
      expect(hit.knowledge_base.name).toMatch(/\S/);
    }
    expect(structured.summary).toContain(`最相关的是 ${structured.results[0]?.citation}`);
    expect(structured.results[0]?.content).toContain("计件工资");
    expect(structured.results.some((hit) => hit.uri?.startsWith("weft://"))).toBe(true);
    const content = result.content as { type: string; text?: string; uri?: string }[];
    expect(content[0]?.text).toBe(structured.summary);
    expect(content.some((item) => item.type === "resource_link")).toBe(true);
    await client.close();
  });

  it("answers the README's curl, which names no protocol revision, with the JSON as text too", async () => {
    const { status, body } = await callJson("/mcp", {
      method: "POST",
      key: keys.staff,
      headers: { Accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "knowledge_search", arguments: { query: "计件工资怎么算", top_k: 2 } },
      }),
    });
    expect(status).toBe(200);
    const texts = (body.result.content as { type: string; text?: string }[]).filter((c) => c.type === "text");
    expect(texts.map((c) => c.text)).toEqual([
      body.result.structuredContent.summary,
      JSON.stringify(body.result.structuredContent),
    ]);
  });
});
