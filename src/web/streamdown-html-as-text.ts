// Stands in for `rehype-raw` inside Streamdown (vite.config.ts aliases it here). rehype-raw parses
// HTML written inside Markdown with a full HTML parser (parse5), the largest part of the renderer.
// Answers are Markdown, so HTML in them is shown as the text it is, except a line break, which
// models put in table cells. It must become text here: Streamdown's next step (rehype-sanitize)
// drops whatever is still raw, so a `<div>` block of a model's answer or a quoted document would
// vanish with the words inside it. As text, React escapes it, so nothing of it is ever markup.

/** The part of a hast node this plugin reads or writes. */
interface HastNode {
  type: string;
  value?: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

const LINE_BREAK = /^<br\s*\/?>$/i;

function htmlAsText(node: HastNode): void {
  if (!node.children) return;
  node.children = node.children.map((child) => {
    if (child.type !== "raw") {
      htmlAsText(child);
      return child;
    }
    const value = child.value ?? "";
    if (LINE_BREAK.test(value.trim())) return { type: "element", tagName: "br", properties: {}, children: [] };
    return { type: "text", value };
  });
}

/** A rehype plugin: turns `<br>` into a line break and any other HTML into the text it is. */
export default function rehypeHtmlAsText() {
  return htmlAsText;
}
