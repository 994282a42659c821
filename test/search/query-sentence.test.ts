import { describe, expect, it } from "vitest";
import { querySentence } from "../../src/search/query-sentence.ts";

describe("the sentence holding the query's words", () => {
  it("is the sentence where most of the query's words sit together, with the share of them it holds", () => {
    const passage = "布林肯是美国国务卿。经中美双方商定，布林肯将于6月18日至19日访华。此前访华曾推迟。";
    // The query's units are 布林, 林肯, 肯访, 访华, 华时 and 时间; the second sentence holds three.
    expect(querySentence("布林肯访华时间", passage)).toMatchObject({
      text: "经中美双方商定,布林肯将于6月18日至19日访华",
      coverage: 0.5,
    });
  });

  it("keeps CJK characters after a number apart from it", () => {
    expect(querySentence("访华", "将于19日访华。").text).toBe("将于19日访华");
  });

  it("widens to the sentence ends around the words, never past them", () => {
    const found = querySentence("冬奥会开幕式", "第一句无关。冬奥会开幕式于2月4日举行，共三小时；之后是比赛。");
    expect(found.text).toBe("冬奥会开幕式于2月4日举行,共三小时");
    expect(found.coverage).toBe(1);
  });

  it("matches English words whole, takes the tightest window and stops at a full stop", () => {
    const found = querySentence(
      "When did Tesla die in New York?",
      "Tesla was an inventor. Tesla died on 7 January 1943 in New York.",
    );
    // tesla, new and york of tesla, die, new, york: "died" is another word.
    expect(found).toMatchObject({ text: " tesla died on 7 january 1943 in new york", coverage: 0.75 });
  });

  it("is empty, with no coverage, when the passage shares none of the query's words", () => {
    expect(querySentence("特斯拉交付量", "天气不错。")).toMatchObject({ text: "", coverage: 0 });
  });

  it("reads both texts through the synonym canonicaliser", () => {
    const canonical = (text: string) => text.replaceAll("创建", "新建");
    expect(querySentence("新建订单", "先登录。创建订单时填写款式。", canonical).coverage).toBe(1);
    expect(querySentence("新建订单", "先登录。创建订单时填写款式。").coverage).toBeLessThan(1);
  });
});
