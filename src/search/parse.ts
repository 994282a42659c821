import { AppError } from "../errors.ts";

export type ContentType = "markdown" | "text" | "html";

export interface ParsedDocument {
  title: string;
  /** Markdown-flavoured text: headings as `#` lines, blocks separated by blank lines. */
  text: string;
}

const BY_EXTENSION: Record<string, ContentType> = {
  md: "markdown",
  markdown: "markdown",
  txt: "text",
  text: "text",
  html: "html",
  htm: "html",
};

/** The content type from an explicit value or the file name; unsupported types are a 415. */
export function contentTypeOf(filename: string, declared?: string): ContentType {
  if (declared) {
    const mime = declared.split(";")[0]?.trim().toLowerCase();
    if (mime === "text/markdown" || mime === "markdown") return "markdown";
    if (mime === "text/plain" || mime === "text") return "text";
    if (mime === "text/html" || mime === "html") return "html";
  }
  const extension = filename.split(".").pop()?.toLowerCase() ?? "";
  const type = BY_EXTENSION[extension];
  if (!type) {
    throw new AppError(
      "unsupported_media_type",
      `'${filename}' is not a supported type. Upload Markdown (.md), plain text (.txt) or HTML (.html); convert PDF or Word files to one of these first.`,
    );
  }
  return type;
}

/** Turns an upload into titled text. Throws a 422 when nothing readable is left. */
export function parseDocument(filename: string, content: string, type: ContentType): ParsedDocument {
  if (content.includes("\u0000"))
    throw new AppError("unparseable_document", `'${filename}' looks like a binary file, not ${type} text.`);
  const text = type === "html" ? htmlToText(content) : content.replace(/\r\n?/g, "\n");
  if (!/[\p{L}\p{N}]/u.test(text)) throw new AppError("unparseable_document", `'${filename}' contains no readable text.`);
  const htmlTitle = type === "html" ? decodeEntities(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(content)?.[1] ?? "").trim() : "";
  const heading = /^#\s+(.+)$/m.exec(text)?.[1]?.trim();
  const title = htmlTitle || (type !== "text" ? heading : undefined) || filename.replace(/\.[^.]+$/, "");
  return { title, text };
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1]?.toLowerCase() === "x" ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Keeps the structure search needs (headings, paragraphs, list items) and drops markup and scripts. */
export function htmlToText(html: string): string {
  return decodeEntities(
    html
      .replace(/<(script|style|noscript|template|head)\b[\s\S]*?<\/\1>/gi, "")
      .replace(/<!--[\s\S]*?-->/g, "")
      .replace(
        /<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1>/gi,
        (_m, level: string, inner: string) => `\n\n${"#".repeat(Number(level))} ${inner.replace(/<[^>]+>/g, "").trim()}\n\n`,
      )
      .replace(/<li\b[^>]*>/gi, "\n- ")
      .replace(/<br\s*\/?>/gi, "\n")
      .replace(/<\/?(p|div|section|article|ul|ol|table|tr|blockquote|pre|header|footer|main|nav)\b[^>]*>/gi, "\n\n")
      .replace(/<\/t[dh]>/gi, " ")
      .replace(/<[^>]+>/g, ""),
  )
    .replace(/[ \t]+/g, " ")
    .replace(/\n[ \t]+/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
