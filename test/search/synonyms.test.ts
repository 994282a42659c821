import { describe, expect, it } from "vitest";
import { DEFAULT_SYNONYMS } from "../../src/search/default-synonyms.ts";
import { phraseMatch } from "../../src/search/local-reranker.ts";
import { normaliseGroups, Synonyms } from "../../src/search/synonyms.ts";
import { keys } from "../fixtures.ts";
import { call } from "../helpers.ts";

async function newKb(name: string): Promise<string> {
  const res = await call("/api/knowledge-bases", { method: "POST", key: keys.boss, body: JSON.stringify({ name }) });
  return (await res.json<{ id: string }>()).id;
}

async function upload(kbId: string, filename: string, content: string) {
  const res = await call(`/api/knowledge-bases/${kbId}/documents`, {
    method: "POST",
    key: keys.boss,
    body: JSON.stringify({ filename, content }),
  });
  expect(res.status).toBe(201);
}

async function keywordSearch(question: string, kb: string) {
  const res = await call("/api/v1/knowledge-search", {
    method: "POST",
    key: keys.staff,
    body: JSON.stringify({ question, knowledge_base_ids: [kb], search_mode: "keyword", rerank: false, min_score: 0 }),
  });
  expect(res.status).toBe(200);
  return (await res.json<{ results: { content: string }[] }>()).results;
}

function putSynonyms(groups: unknown, key = keys.boss) {
  return call("/api/synonyms", { method: "PUT", key, body: JSON.stringify({ groups }) });
}

// The workshop guide's order sections (knowledge/docs/车间系统使用手册/02-订单.md) as they were when
// they still named an order page, abridged: search fixtures, not the guide as it is.
const ORDERS_GUIDE = `# 订单管理

## 新建订单

在“订单”页面点击“新建订单”，填写客户名称、款号、数量、交货日期和备注后保存。

## 修改订单

待生产和生产中的订单可以修改数量、交货日期和备注。款号一旦有计件记录就不能再改；如果确实下错了款，请取消这张订单再新建一张。

## 查询订单

订单列表可以按状态、客户、交货日期筛选。

## 交期提醒

交货日期前三天，订单列表会把这张订单标成橙色；已经过了交货日期还没完成的标成红色。

## 取消订单

在订单详情页点击“取消订单”并填写原因。取消后这张订单不能再登记计件。
`;

describe("synonym expansion", () => {
  const synonyms = new Synonyms([
    ["新建", "创建", "添加"],
    ["GDP", "地区生产总值"],
  ]);

  it("adds the other words of every group the query uses, without single Chinese characters", () => {
    expect(synonyms.expansionTerms("怎么创建订单").sort()).toEqual(["创建", "新建", "添加"].sort());
    expect(synonyms.expansionTerms("2021年GDP")).toEqual(expect.arrayContaining(["gdp", "地区", "总值"]));
    expect(synonyms.expansionTerms("2021年GDP")).not.toContain("地");
    expect(synonyms.expansionTerms("工资怎么算")).toEqual([]);
  });

  it("makes the phrase reranker read a synonym as the same phrase", () => {
    const canonical = synonyms.canonicaliserFor("创建订单");
    expect(phraseMatch("创建订单", "点击新建订单按钮", canonical)).toBe(1);
    expect(phraseMatch("创建订单", "点击新建订单按钮")).toBeLessThan(1);
  });

  it("refuses a word in two groups and a group of one word", () => {
    expect(() =>
      normaliseGroups([
        ["新建", "创建"],
        ["创建", "建立"],
      ]),
    ).toThrow(/one group only/);
    expect(() => normaliseGroups([["工资", "工资"]])).toThrow(/two different words/);
    expect(normaliseGroups([["ＧＤＰ", " gdp ", "地区生产总值"]])).toEqual([["gdp", "地区生产总值"]]);
  });
});

describe("/api/synonyms", () => {
  it("serves the shipped garment set until the workshop sets its own", async () => {
    const res = await call("/api/synonyms", { key: keys.staff });
    expect(res.status).toBe(200);
    const body = await res.json<{ groups: string[][]; is_default: boolean }>();
    expect(body.is_default).toBe(true);
    expect(body.groups).toEqual(DEFAULT_SYNONYMS);
    expect(body.groups[0]).toEqual(expect.arrayContaining(["新建", "创建", "添加", "录入"]));
  });

  it("lets a boss replace the groups and takes effect on the next query, with no re-indexing", async () => {
    const kb = await newKb("同义词-1");
    await upload(kb, "machines.md", "# 设备保养\n\n衣车每周上油一次，针板每天清理线头。");
    expect(await keywordSearch("缝纫机", kb)).toEqual([]);

    const put = await putSynonyms([["缝纫机", "衣车"]]);
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ groups: [["缝纫机", "衣车"]], is_default: false });
    expect((await keywordSearch("缝纫机", kb))[0]?.content).toContain("衣车每周上油");

    // An empty list turns synonyms off; DELETE goes back to the shipped set.
    expect((await putSynonyms([])).status).toBe(200);
    expect(await keywordSearch("缝纫机", kb)).toEqual([]);
    const reset = await call("/api/synonyms", { method: "DELETE", key: keys.boss });
    expect(await reset.json()).toMatchObject({ is_default: true });
  });

  it("finds a passage written with the default set's synonym in keyword mode", async () => {
    const kb = await newKb("同义词-2");
    await upload(kb, "pay.md", "# 发放\n\n每月十号发放薪水，由老板确认。");
    expect((await keywordSearch("工资", kb))[0]?.content).toContain("发放薪水");
  });

  it("finds how to change an order when the question says 改成 or 改为, as the guide says 修改", async () => {
    const kb = await newKb("同义词-3");
    await upload(kb, "orders.md", ORDERS_GUIDE);
    expect((await keywordSearch("把订单的数量改成900", kb))[0]?.content).toContain("可以修改数量");
    expect((await keywordSearch("订单的备注改为红色", kb))[0]?.content).toContain("可以修改数量");
  });

  it("leaves 改 alone out of the shipped set: as a substring it is also 改进 and 改善", () => {
    const shipped = new Synonyms(DEFAULT_SYNONYMS);
    expect(shipped.expansionTerms("把数量改成900")).toContain("修改");
    expect(shipped.expansionTerms("计件登记错了怎么改正")).toContain("修改");
    expect(shipped.expansionTerms("怎么改进做工")).toEqual([]);
    expect(shipped.canonicaliserFor("改成")("持续改进做工")).toBe("持续改进做工");
  });

  it("keeps each workshop's synonyms to itself", async () => {
    expect((await putSynonyms([["锁边", "拷边"]])).status).toBe(200);
    const other = await call("/api/synonyms", { key: keys.otherBoss });
    expect(await other.json()).toMatchObject({ is_default: true });
    await call("/api/synonyms", { method: "DELETE", key: keys.boss });
  });

  it("lets only a boss change them, and refuses bad groups with 400 naming the problem", async () => {
    expect((await putSynonyms([["新建", "创建"]], keys.staff)).status).toBe(403);
    const ambiguous = await putSynonyms([
      ["新建", "创建"],
      ["创建", "建立"],
    ]);
    expect(ambiguous.status).toBe(400);
    expect((await ambiguous.json<{ error: { message: string } }>()).error.message).toContain("one group only");
    expect((await putSynonyms([["新建"]])).status).toBe(400);
    expect((await putSynonyms([["a;drop", "b"]])).status).toBe(400);
    const extra = await call("/api/synonyms", {
      method: "PUT",
      key: keys.boss,
      body: '{"groups":[],"__proto__":{"role":"admin"}}',
    });
    expect(extra.status).toBe(400);
  });
});
