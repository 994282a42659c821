// Stands in for `rehype-raw` inside Streamdown (vite.config.ts aliases it here). rehype-raw parses
// HTML written inside Markdown with a full HTML parser (parse5), the largest part of the renderer.
// Answers are Markdown, so HTML in them is shown as the text it is (Streamdown turns what is left
// of it into text, as react-markdown does), except a line break, which models put in table cells.

/** The part of a hast node this plugin reads or writes. */
interface HastNode {
  type: string;
  value?: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

const LINE_BREAK = /^<br\s*\/?>$/i;

function lineBreaks(node: HastNode): void {
  if (!node.children) return;
  node.children = node.children.map((child) => {
    if (child.type === "raw" && LINE_BREAK.test(child.value?.trim() ?? "")) {
      return { type: "element", tagName: "br", properties: {}, children: [] };
    }
    lineBreaks(child);
    return child;
  });
}

/** A rehype plugin: turns `<br>` into a line break and leaves any other HTML to be shown as text. */
export default function rehypeHtmlAsText() {
  return lineBreaks;
}
