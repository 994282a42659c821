import rehypeSanitize from "rehype-sanitize";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { describe, expect, it } from "vitest";
import rehypeHtmlAsText from "../../src/web/streamdown-html-as-text.ts";

interface Node {
  type: string;
  tagName?: string;
  value?: string;
  children?: Node[];
}

/** What a person sees of an answer: Streamdown's order (its HTML step, then sanitizing), as text and line breaks. */
function shown(markdown: string): string {
  const processor = unified()
    .use(remarkParse)
    .use(remarkRehype, { allowDangerousHtml: true })
    .use(rehypeHtmlAsText)
    .use(rehypeSanitize);
  const tree = processor.runSync(processor.parse(markdown)) as Node;
  const text = (node: Node): string =>
    node.type === "text" ? (node.value ?? "") : node.tagName === "br" ? "⏎" : (node.children ?? []).map(text).join("");
  return text(tree);
}

describe("HTML inside an answer's Markdown", () => {
  it("is shown as the text it is, block or inline, so nothing a model or a document wrote disappears", () => {
    expect(shown("先看\n\n<div>注意：先停机再换针</div>\n\n再做")).toContain("<div>注意：先停机再换针</div>");
    expect(shown("<p>第一段</p>")).toContain("<p>第一段</p>");
    expect(shown("这是<u>重点</u>")).toBe("这是<u>重点</u>");
    expect(shown("<script>alert(1)</script>")).toContain("<script>alert(1)</script>");
  });

  it("turns <br> into a line break, as models write them in table cells", () => {
    expect(shown("| a |\n| - |\n| 上领<br>下摆 |")).toContain("上领⏎下摆");
  });
});
