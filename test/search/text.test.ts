import { describe, expect, it } from "vitest";
import { chunkText, weight } from "../../src/search/chunker.ts";
import { parseHeading } from "../../src/search/headings.ts";
import { contentTypeOf, htmlToText, parseDocument } from "../../src/search/parse.ts";
import { queryTerms, terms } from "../../src/search/segment.ts";

describe("segmentation", () => {
  it("gives Chinese characters and bigrams, and lowercase Latin words", () => {
    expect(terms("计件工资 Payroll-2024")).toEqual([
      "计",
      "计件",
      "件",
      "件工",
      "工",
      "工资",
      "资",
      "payroll",
      "2024",
      "payroll2024",
    ]);
  });

  it("splits mixed runs at the script boundary", () => {
    expect(terms("GPU芯片")).toEqual(["gpu", "芯", "芯片", "片"]);
  });

  it("lets GPT4, GPT-4 and GPT 4 match each other: joined and split forms are both terms", () => {
    const query = new Set(queryTerms("GPT4"));
    for (const passage of ["GPT-4 发布", "GPT 4 发布", "gpt4发布"]) {
      const shared = terms(passage).filter((t) => query.has(t));
      expect(new Set(shared), passage).toEqual(new Set(["gpt", "4", ...(passage.includes(" 4") ? [] : ["gpt4"])]));
    }
    expect(terms("CVPR2022")).toEqual(["cvpr2022", "cvpr", "2022"]);
    expect(terms("CVPR 2022")).toEqual(["cvpr", "2022"]);
  });

  it("unifies full-width and half-width forms (NFKC)", () => {
    expect(terms("ＧＰＴ－４")).toEqual(terms("GPT-4"));
    expect(terms("１００ｋｇ")).toEqual(terms("100kg"));
  });

  it("keeps numbers with units matchable written together or apart", () => {
    expect(terms("100kg")).toEqual(["100kg", "100", "kg"]);
    expect(terms("100 kg")).toEqual(["100", "kg"]);
    expect(terms("重量100公斤")).toContain("100");
    expect(terms("重量100公斤")).toContain("公斤");
  });
});

describe("chunking", () => {
  it("keeps each chunk under its heading path and never crosses a heading", () => {
    const chunks = chunkText("# 订单\n\n新建订单。\n\n## 工序\n\n设置工序单价。\n\n# 工资\n\n月底结算。", {
      size: 100,
      overlap: 0,
    });
    expect(chunks.map((c) => [c.headingPath.join(">"), c.content])).toEqual([
      ["订单", "新建订单。"],
      ["订单>工序", "设置工序单价。"],
      ["工资", "月底结算。"],
    ]);
    expect(chunks.map((c) => c.position)).toEqual([0, 1, 2]);
  });

  it("breaks between sentences, Chinese or English, and overlaps by whole sentences", () => {
    const text = "第一句话说明订单。第二句话说明工序！第三句话说明工资？ The fourth sentence is English. The fifth one too.";
    const chunks = chunkText(text, { size: 20, overlap: 12 });
    for (const chunk of chunks) expect(weight(chunk.content)).toBeLessThanOrEqual(20 + 12);
    expect(chunks[0]?.content).toBe("第一句话说明订单。第二句话说明工序！");
    expect(chunks[1]?.content.startsWith("第二句话说明工序！")).toBe(true);
    expect(chunks.map((c) => c.content).join(" ")).toContain("The fifth one too.");
  });

  it("cuts an over-long sentence at clause marks", () => {
    const long = `${"这是一个很长的分句，".repeat(12)}结束。`;
    const chunks = chunkText(long, { size: 40, overlap: 0 });
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) expect(weight(chunk.content)).toBeLessThanOrEqual(40);
    expect(chunks[0]?.content.endsWith("，")).toBe(true);
  });
});

describe("chunk budgets", () => {
  it("count a Chinese character as one and three other characters as one", () => {
    expect(weight("工序单价")).toBe(4);
    expect(weight("abcdef")).toBe(2);
    const english = "Staff record finished pieces every day. ".repeat(60);
    const chunks = chunkText(english, { size: 100, overlap: 0 });
    for (const chunk of chunks) expect(weight(chunk.content)).toBeLessThanOrEqual(100);
    expect(chunks[0]!.content.length).toBeGreaterThan(250);
  });
});

describe("parsing uploads", () => {
  it("takes the type from the file name and refuses what it cannot read", () => {
    expect(contentTypeOf("guide.md")).toBe("markdown");
    expect(contentTypeOf("notes.TXT")).toBe("text");
    expect(contentTypeOf("page.htm")).toBe("html");
    expect(() => contentTypeOf("scan.pdf")).toThrow(/Markdown.*plain text.*HTML/);
  });

  it("turns HTML into headed text without scripts, tags or entities", () => {
    const text = htmlToText(
      "<html><head><title>T</title><script>alert(1)</script></head><body><h2>工序 &amp; 单价</h2><p>每道工序<b>单价</b>不同。</p><ul><li>裁剪</li><li>缝制</li></ul></body></html>",
    );
    expect(text).toContain("## 工序 & 单价");
    expect(text).toContain("每道工序单价不同。");
    expect(text).toContain("- 裁剪");
    expect(text).not.toContain("alert");
    expect(text).not.toContain("<");
  });

  it("keeps the text of unclosed tags and drops what an unclosed comment or script hides, as a browser does", () => {
    expect(htmlToText("<h2>标题<b>加粗</b>\n 续</h2><p>a < b</p>")).toBe("## 标题加粗 续\n\na < b");
    expect(htmlToText("<p>前文</p><!-- 注释没有结束 <p>后文</p>")).toBe("前文");
    expect(htmlToText("<p>前文</p><script>var x = '<p>后文</p>'")).toBe("前文");
    expect(htmlToText("<h1>没有结束的标题<p>正文")).toBe("没有结束的标题正文");
    expect(htmlToText("<scripts>保留</scripts>")).toBe("保留");
  });

  it("reads Markdown headings in one pass, with CommonMark's closing sequence", () => {
    expect(parseHeading("## 工序 ##")).toEqual({ level: 2, title: "工序" });
    expect(parseHeading("## Learn C#")).toEqual({ level: 2, title: "Learn C#" });
    expect(parseHeading("#\t制表符")).toEqual({ level: 1, title: "制表符" });
    expect(parseHeading("####### 七级")).toBeNull();
    expect(parseHeading("#没有空格")).toBeNull();
    expect(parseHeading(`# ${" ".repeat(10)}`)).toBeNull();
  });

  it("titles a document by its HTML title, first heading, or file name", () => {
    expect(parseDocument("a.html", "<title>页面标题</title><p>正文</p>", "html").title).toBe("页面标题");
    expect(parseDocument("a.md", "intro\n\n# 使用手册\n\ntext", "markdown").title).toBe("使用手册");
    expect(parseDocument("notes.txt", "# not a heading in text\nbody", "text").title).toBe("notes");
  });

  it("refuses binary content and text with nothing readable", () => {
    expect(() => parseDocument("a.txt", "abc\u0000def", "text")).toThrow(/binary/);
    expect(() => parseDocument("a.md", "  \n---\n", "markdown")).toThrow(/no readable text/);
  });
});

describe("query terms", () => {
  it("leave out question words in Chinese and English", () => {
    expect(queryTerms("工资是多少？")).toEqual(["工", "工资", "资"]);
    expect(queryTerms("How is the payroll computed")).toEqual(["payroll", "computed"]);
  });

  it("keep a query made only of question words", () => {
    expect(queryTerms("什么")).toEqual(["什", "什么", "么"]);
  });
});
