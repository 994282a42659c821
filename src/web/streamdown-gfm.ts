// Stands in for `remark-gfm` inside Streamdown (vite.config.ts aliases it here): the same GitHub
// Markdown (tables, task lists, strikethrough, autolinks, footnotes) for parsing, without the
// Markdown writer remark-gfm also registers. Streamdown only reads Markdown, never writes it.
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm, type Options } from "micromark-extension-gfm";

/** The part of a unified processor this plugin uses. */
interface Processor {
  data(): { micromarkExtensions?: unknown[]; fromMarkdownExtensions?: unknown[] };
}

/** A remark plugin: parse GitHub Flavored Markdown. */
export default function remarkGfmParse(this: Processor, options?: Options): void {
  const data = this.data();
  data.micromarkExtensions ??= [];
  data.fromMarkdownExtensions ??= [];
  data.micromarkExtensions.push(gfm(options));
  data.fromMarkdownExtensions.push(gfmFromMarkdown());
}
