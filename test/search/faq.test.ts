import { describe, expect, it } from "vitest";
import { dbOf, keys } from "../fixtures.ts";
import { call, mcpClient } from "../helpers.ts";
import { fileBytes } from "./workshop-files.ts";

interface Entry {
  id: string;
  question: string;
  similar_questions: string[];
  answer: string;
}

interface Result {
  id: string;
  content: string;
  score: number;
  knowledge_id: string;
  knowledge_title: string;
  knowledge_filename: string;
}

async function newKb(name: string, type?: "faq" | "document", key = keys.boss): Promise<string> {
  const res = await call("/api/knowledge-bases", {
    method: "POST",
    key,
    body: JSON.stringify({ name, ...(type ? { type } : {}) }),
  });
  expect(res.status).toBe(201);
  return (await res.json<{ id: string }>()).id;
}

function addEntry(kb: string, entry: unknown, key = keys.boss) {
  return call(`/api/knowledge-bases/${kb}/faq`, { method: "POST", key, body: JSON.stringify(entry) });
}

async function search(body: Record<string, unknown>) {
  const res = await call("/api/v1/knowledge-search", { method: "POST", key: keys.staff, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return (await res.json<{ results: Result[] }>()).results;
}

/**
 * The first sections of knowledge/docs/车间系统使用手册/04-计件登记.md as it was when it still named a
 * 计件 page: search fixtures, whose scores the test below checks, not the guide as it is.
 */
const PIECE_MANUAL = `# 计件登记

## 员工怎么登记计件

员工每天下班前在“计件”页面点击“登记”，依次选择订单、工序，填写完成的件数后提交。一次可以登记多条，例如上午做了 120 件合肩缝、下午做了 80 件上领子，就登记两条。

## 用对话登记计件

也可以在对话窗口里说“帮我登记：今天 2026-015 上领子 80 件”。助手会先弹出确认卡片，显示员工、订单、工序、件数和按当前单价算出的金额，确认无误后点“确认”才会保存。

## 老板代登记

老板可以替员工登记，例如员工请假前没来得及登记。代登记的记录会标明登记人，方便核对。
`;

const PASSWORD = {
  question: "忘记密码怎么办",
  similar_questions: ["密码找不回来了", "登不上去了"],
  answer: "请老板在员工页面为你重置密码。",
};
const ORDER = {
  question: "怎么新建订单",
  similar_questions: ["怎么下单"],
  answer: "在订单页面点新建订单，填好客户、款号、数量和交货日期后保存。",
};

describe("FAQ entries over REST", () => {
  it("adds, reads, replaces and deletes entries one by one", async () => {
    const kb = await newKb("常见问题-1", "faq");
    const created = await addEntry(kb, PASSWORD);
    expect(created.status).toBe(201);
    const entry = await created.json<Entry>();
    expect(entry).toMatchObject(PASSWORD);

    const list = await call(`/api/knowledge-bases/${kb}/faq`, { key: keys.staff });
    expect(await list.json()).toMatchObject({ entries: [PASSWORD], total_count: 1 });
    expect((await call(`/api/knowledge-bases/${kb}/faq/${entry.id}`, { key: keys.staff })).status).toBe(200);

    const put = await call(`/api/knowledge-bases/${kb}/faq/${entry.id}`, {
      method: "PUT",
      key: keys.boss,
      body: JSON.stringify({ ...PASSWORD, answer: "在登录页点“忘记密码”，或请老板重置。" }),
    });
    expect(put.status).toBe(200);
    const [hit] = await search({ question: "忘记密码怎么办", knowledge_base_ids: [kb], min_score: 0 });
    expect(hit?.content).toBe("在登录页点“忘记密码”，或请老板重置。");

    const del = await call(`/api/knowledge-bases/${kb}/faq/${entry.id}`, { method: "DELETE", key: keys.boss });
    expect(await del.json()).toEqual({ id: entry.id, deleted: true });
    expect(await search({ question: "忘记密码怎么办", knowledge_base_ids: [kb], min_score: 0 })).toEqual([]);
    expect((await call(`/api/knowledge-bases/${kb}/faq/${entry.id}`, { key: keys.staff })).status).toBe(404);
  });

  it("answers a second entry with the same standard question with 409, and concurrent ones with one winner", async () => {
    const kb = await newKb("常见问题-2", "faq");
    expect((await addEntry(kb, ORDER)).status).toBe(201);
    expect((await addEntry(kb, ORDER)).status).toBe(409);
    const racers = await Promise.all([1, 2, 3].map(() => addEntry(kb, PASSWORD)));
    expect(racers.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const list = await (await call(`/api/knowledge-bases/${kb}/faq`, { key: keys.staff })).json<{ total_count: number }>();
    expect(list.total_count).toBe(2);
  });

  it("imports JSON entry by entry, reporting a bad one without losing the others, and re-imports as unchanged", async () => {
    const kb = await newKb("常见问题-3", "faq");
    const body = JSON.stringify({ entries: [ORDER, { question: "没有答案" }, PASSWORD] });
    const first = await call(`/api/knowledge-bases/${kb}/faq/import`, { method: "POST", key: keys.boss, body });
    expect(first.status).toBe(200);
    const report = await first.json<{ created: number; failed: number; results: { status: string; index?: number }[] }>();
    expect(report).toMatchObject({ created: 2, failed: 1 });
    expect(report.results[1]).toMatchObject({ status: "failed", index: 1 });
    const again = await call(`/api/knowledge-bases/${kb}/faq/import`, { method: "POST", key: keys.boss, body });
    expect(await again.json()).toMatchObject({ created: 0, unchanged: 2, failed: 1 });
  });

  it("imports CSV, matching existing entries by their standard question", async () => {
    const kb = await newKb("常见问题-4", "faq");
    await addEntry(kb, ORDER);
    const csv = `question,similar_questions,answer\n${ORDER.question},怎么下单|怎么开新单,"新答案：在订单页面点""新建订单""。"\n工资什么时候发,几号发工资,每月十号发放。\n`;
    const res = await call(`/api/knowledge-bases/${kb}/faq/import`, {
      method: "POST",
      key: keys.boss,
      headers: { "Content-Type": "text/csv" },
      body: csv,
    });
    expect(await res.json()).toMatchObject({ created: 1, replaced: 1, failed: 0 });
    const [hit] = await search({ question: "怎么开新单", knowledge_base_ids: [kb], min_score: 0 });
    expect(hit).toMatchObject({ knowledge_title: ORDER.question, content: '新答案：在订单页面点"新建订单"。' });
  });

  it("imports an Excel file with the same columns, made by SheetJS, as a boss keeps a FAQ list", async () => {
    const kb = await newKb("常见问题-表格", "faq");
    const form = new FormData();
    form.set("file", new File([fileBytes("常见问题.xlsx")], "常见问题.xlsx"));
    const res = await call(`/api/knowledge-bases/${kb}/faq/import`, { method: "POST", key: keys.boss, body: form });
    expect(await res.json()).toMatchObject({ created: 2, failed: 0 });
    const [hit] = await search({ question: "针断了怎么处理", knowledge_base_ids: [kb] });
    expect(hit).toMatchObject({
      knowledge_title: "断针了怎么办",
      content: "立即停机，找齐断针的所有碎片交给组长登记，再换新针。",
    });
  });

  it("answers a file of another kind with 415 and a body that is not JSON with invalid_json", async () => {
    const kb = await newKb("常见问题-导入格式", "faq");
    const form = new FormData();
    form.set("file", new File(["# 常见问题\n\n怎么下单"], "faq.md", { type: "text/markdown" }));
    const markdown = await call(`/api/knowledge-bases/${kb}/faq/import`, { method: "POST", key: keys.boss, body: form });
    expect(markdown.status).toBe(415);
    const broken = await call(`/api/knowledge-bases/${kb}/faq/import`, { method: "POST", key: keys.boss, body: "{entries" });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: { code: "invalid_json" } });
  });

  it("keeps staff from writing, other workshops out, and entries out of document bases", async () => {
    const faq = await newKb("常见问题-5", "faq");
    const docs = await newKb("文档库-5");
    expect((await addEntry(faq, ORDER, keys.staff)).status).toBe(403);
    expect((await addEntry(faq, ORDER, keys.otherBoss)).status).toBe(404);
    expect((await addEntry(docs, ORDER)).status).toBe(422);
    const upload = await call(`/api/knowledge-bases/${faq}/documents`, {
      method: "POST",
      key: keys.boss,
      body: JSON.stringify({ filename: "a.md", content: "# x\n\ny" }),
    });
    expect(upload.status).toBe(422);
    expect((await addEntry(faq, { ...ORDER, extra: 1 })).status).toBe(400);
    expect((await addEntry(faq, { ...ORDER, answer: "" })).status).toBe(400);
  });
});

describe("deleting an FAQ knowledge base", () => {
  it("removes its entries with it, from the list and from search", async () => {
    const kb = await newKb("常见问题-9", "faq");
    const unique = { question: "锅炉房几点开门", similar_questions: [], answer: "锅炉房早上六点开门。" };
    await addEntry(kb, unique);
    expect((await call(`/api/knowledge-bases/${kb}`, { method: "DELETE", key: keys.boss })).status).toBe(200);
    const { n } = (await dbOf("t-jinxiu")
      .prepare("SELECT COUNT(*) AS n FROM faq_entries WHERE kb_id = ?1")
      .bind(kb)
      .first<{ n: number }>()) ?? {
      n: -1,
    };
    expect(n).toBe(0);
    expect((await call(`/api/knowledge-bases/${kb}/faq`, { key: keys.staff })).status).toBe(404);
    const all = await search({ question: "锅炉房几点开门", min_score: 0 });
    expect(all.some((r) => r.content === unique.answer)).toBe(false);
  });
});

describe("FAQ search", () => {
  it("matches the query against the questions and answers with the answer, each entry once", async () => {
    const kb = await newKb("常见问题-6", "faq");
    await addEntry(kb, PASSWORD);
    await addEntry(kb, ORDER);
    const results = await search({ question: "密码找不回来了", knowledge_base_ids: [kb], min_score: 0 });
    expect(results[0]).toMatchObject({ content: PASSWORD.answer, knowledge_title: PASSWORD.question });
    expect(new Set(results.map((r) => r.knowledge_id)).size).toBe(results.length);
  });

  it("puts an FAQ answer that scores highest first when searched together with document bases", async () => {
    const faq = await newKb("常见问题-7", "faq");
    const docs = await newKb("文档库-7");
    await addEntry(faq, ORDER);
    await call(`/api/knowledge-bases/${docs}/documents`, {
      method: "POST",
      key: keys.boss,
      body: JSON.stringify({
        filename: "orders.md",
        content: "# 订单\n\n## 新建订单\n\n新建订单时先选客户。怎么新建订单？在订单页面操作，新建订单后保存。",
      }),
    });
    const results = await search({ question: "怎么新建订单", knowledge_base_ids: [faq, docs] });
    expect(results[0]).toMatchObject({ knowledge_title: ORDER.question, content: ORDER.answer });
    expect(results[0]?.score).toBeGreaterThanOrEqual(0.8);
    expect(results.some((r) => r.knowledge_filename === "orders.md")).toBe(true);
  });

  it("ranks FAQ answers and document passages by the score they show (计件怎么登记 on the demo knowledge)", async () => {
    const faq = await newKb("常见问题-9", "faq");
    const docs = await newKb("车间系统使用手册-9");
    await addEntry(faq, {
      question: "员工怎么登记计件",
      similar_questions: ["怎么登记件数", "计件在哪里登记", "每天做的件数怎么录入"],
      answer: "员工每天下班前在“计件”页面点击“登记”，依次选择订单、工序，填写完成的件数后提交。",
    });
    await call(`/api/knowledge-bases/${docs}/documents`, {
      method: "POST",
      key: keys.boss,
      body: JSON.stringify({ filename: "04-计件登记.md", content: PIECE_MANUAL }),
    });
    const results = await search({ question: "计件怎么登记", knowledge_base_ids: [faq, docs], min_score: 0 });
    // The FAQ answer scores high, and a passage of the manual higher: the passage comes first.
    expect(results.find((r) => r.knowledge_title === "员工怎么登记计件")?.score).toBeGreaterThanOrEqual(0.8);
    expect(results[0]?.knowledge_filename).toBe("04-计件登记.md");
    const scores = results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it("serves FAQ answers over MCP through knowledge_search", async () => {
    const kb = await newKb("常见问题-8", "faq");
    await addEntry(kb, PASSWORD);
    const client = await mcpClient(keys.staff);
    const result = await client.callTool({ name: "knowledge_search", arguments: { query: "忘记密码了", kb_ids: [kb] } });
    expect(result.isError).toBeFalsy();
    const hit = (result.structuredContent as { results: Record<string, unknown>[] }).results[0];
    expect(hit).toMatchObject({
      content: PASSWORD.answer,
      source: "faq",
      knowledge_base: { id: kb, name: "常见问题-8" },
      title: PASSWORD.question,
      uri: null,
    });
    // The citation names the FAQ base and the question that matched, not the entry's internal file name.
    expect(hit?.citation).toBe(`常见问题-8（FAQ） › ${PASSWORD.question}`);
    const text = (result.content as { type: string; text: string }[])[0]?.text ?? "";
    expect(text).toContain(`最相关的是 常见问题-8（FAQ） › ${PASSWORD.question}`);
    expect(text).not.toContain("faq-");
    await client.close();
  });
});
