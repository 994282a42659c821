import { describe, expect, it } from "vitest";
import { citedSources, linkCitations, markQuotes, quotedFrom } from "../../src/web/citations.ts";

const ANSWER = [
  "根据知识库：",
  "",
  "新建订单时，先选择客户，再填写款式和数量。 [1]",
  "",
  "交期必须晚于今天。 [1]",
  "",
  "员工每天下班前录入当天的计件数量。 [2]",
  "",
  "来源：",
  "- [1] 锦绣制衣系统使用手册 › 新建订单",
  "- [2] 锦绣制衣系统使用手册 › 计件录入",
].join("\n");

const ORDER = { citation: "锦绣制衣系统使用手册 › 新建订单", kb_id: "kb-1", chunk_id: "c-order" };
const PIECES = { citation: "锦绣制衣系统使用手册 › 计件录入", kb_id: "kb-1", chunk_id: "c-pieces" };
const OTHER = { citation: "质量手册 › 熨烫", kb_id: "kb-2", chunk_id: "c-iron" };

describe("an answer's citations", () => {
  it("finds the source each [n] names by the citation of its source line", () => {
    expect(citedSources(ANSWER, [OTHER, PIECES, ORDER])).toEqual(
      new Map([
        [1, ORDER],
        [2, PIECES],
      ]),
    );
  });

  it("links the markers and the source lines of known sources, and leaves the rest as written", () => {
    const linked = linkCitations(ANSWER, new Map([[1, ORDER]]));
    expect(linked).toContain("新建订单时，先选择客户，再填写款式和数量。 [\\[1\\]](#cite-1)");
    expect(linked).toContain("- [\\[1\\] 锦绣制衣系统使用手册 › 新建订单](#cite-1)");
    expect(linked).toContain("员工每天下班前录入当天的计件数量。 [2]");
    expect(linked).toContain("- [2] 锦绣制衣系统使用手册 › 计件录入");
  });

  it("leaves an answer without known sources untouched, and a Markdown link's own brackets alone", () => {
    expect(linkCitations(ANSWER, new Map())).toBe(ANSWER);
    const link = "见 [1](https://example.com) 和 [1]\n- [1] 锦绣制衣系统使用手册 › 新建订单";
    expect(linkCitations(link, new Map([[1, ORDER]]))).toBe(
      "见 [1](https://example.com) 和 [\\[1\\]](#cite-1)\n- [\\[1\\] 锦绣制衣系统使用手册 › 新建订单](#cite-1)",
    );
  });

  it("names the sentences quoted from a source, the closest passage's several at once", () => {
    expect(quotedFrom(ANSWER, 1)).toEqual(["新建订单时，先选择客户，再填写款式和数量。", "交期必须晚于今天。"]);
    expect(quotedFrom(ANSWER, 2)).toEqual(["员工每天下班前录入当天的计件数量。"]);
    expect(quotedFrom("先换针。再调间隙。 [1]\n\nSources:\n- [1] 手册 › 跳针", 1)).toEqual(["先换针。", "再调间隙。"]);
  });

  it("marks the quoted sentences in the passage's text, in order, and ignores those it does not hold", () => {
    const content = "新建订单时，先选择客户，再填写款式和数量。交期必须晚于今天。保存后订单进入待生产。";
    expect(markQuotes(content, ["交期必须晚于今天。", "新建订单时，先选择客户，再填写款式和数量。", "不在原文里。"])).toEqual([
      { text: "新建订单时，先选择客户，再填写款式和数量。", quoted: true },
      { text: "交期必须晚于今天。", quoted: true },
      { text: "保存后订单进入待生产。", quoted: false },
    ]);
    expect(markQuotes(content, [])).toEqual([{ text: content, quoted: false }]);
  });
});
