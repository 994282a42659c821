import { AppError } from "../errors.ts";
import { withoutUnprintable } from "../printable.ts";
import { countWork } from "../work-count.ts";
import { firstTitle } from "./headings.ts";
import type { ParsedDocument } from "./parsed-document.ts";

export type ContentType = "markdown" | "text" | "html";

export type { ParsedDocument } from "./parsed-document.ts";

const BY_EXTENSION = new Map<string, ContentType>([
  ["md", "markdown"],
  ["markdown", "markdown"],
  ["txt", "text"],
  ["text", "text"],
  ["html", "html"],
  ["htm", "html"],
]);

/** The content type from an explicit value or the file name; unsupported types are a 415. */
export function contentTypeOf(filename: string, declared?: string): ContentType {
  if (declared) {
    const mime = declared.split(";")[0]?.trim().toLowerCase();
    if (mime === "text/markdown" || mime === "markdown") return "markdown";
    if (mime === "text/plain" || mime === "text") return "text";
    if (mime === "text/html" || mime === "html") return "html";
  }
  const extension = filename.split(".").pop()?.toLowerCase() ?? "";
  const type = BY_EXTENSION.get(extension);
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
  countWork(content.length);
  if (content.includes("\u0000"))
    throw new AppError("unparseable_document", `'${filename}' looks like a binary file, not ${type} text.`);
  // A form feed would read as a location line to the chunker; in text it is a page break, a line's end.
  const text = (type === "html" ? htmlToText(content) : content).replace(/\r\n?|\f/g, "\n");
  countWork(text.length);
  if (!/[\p{L}\p{N}]/u.test(text)) throw new AppError("unparseable_document", `'${filename}' contains no readable text.`);
  const htmlTitle = type === "html" ? decodeEntities(titleElement(content)).trim() : "";
  const heading = type !== "text" ? firstTitle(text) : undefined;
  const title = withoutUnprintable(htmlTitle || heading || "").trim() || filename.replace(/\.[^.]+$/, "");
  return { title, text };
}

const ENTITIES = new Map([
  ["amp", "&"],
  ["lt", "<"],
  ["gt", ">"],
  ["quot", '"'],
  ["apos", "'"],
  ["nbsp", " "],
]);

/**
 * Decodes character references the way HTML does: a code point beyond U+10FFFF, a surrogate or
 * zero becomes U+FFFD (the replacement character) instead of throwing; unknown names stay as
 * written. The pattern is linear: each alternative is one run of one character class.
 */
function decodeEntities(text: string): string {
  countWork(text.length);
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const hex = name[1]?.toLowerCase() === "x";
      const code = Number.parseInt(name.slice(hex ? 2 : 1), hex ? 16 : 10);
      const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
      return valid ? String.fromCodePoint(code) : "\ufffd";
    }
    return ENTITIES.get(name.toLowerCase()) ?? whole;
  });
}

/** The text of the first `<title>` element, found with three forward scans. */
function titleElement(html: string): string {
  const open = /<title\b/gi;
  if (!open.exec(html)) return "";
  const start = html.indexOf(">", open.lastIndex);
  if (start < 0) return "";
  const close = /<\/title>/gi;
  close.lastIndex = start + 1;
  const end = close.exec(html);
  countWork((end ? end.index : html.length) - open.lastIndex);
  return end ? html.slice(start + 1, end.index) : "";
}

// Elements whose content is never text a person reads.
const HIDDEN = new Set(["script", "style", "noscript", "template", "head"]);
const BLOCKS = new Set([
  "p",
  "div",
  "section",
  "article",
  "ul",
  "ol",
  "table",
  "tr",
  "blockquote",
  "pre",
  "header",
  "footer",
  "main",
  "nav",
]);
const TAG_NAME = /^\/?([a-z][a-z0-9-]*)/i;
const TAG_START = /[a-z/!?]/i;

/**
 * Keeps the structure search needs (headings, paragraphs, list items, tables as Markdown tables)
 * and drops markup and scripts. One forward scan over the tags: regexes with a lazy `[\s\S]*?` per
 * tag, tried from every '<', took quadratic time on many unclosed tags; here each character is
 * visited a bounded number of times. An unclosed comment or script hides the rest of the page, as
 * in a browser. A table nested in a cell reads as that cell's text.
 */
export function htmlToText(html: string): string {
  const out: string[] = [];
  let heading: { level: number; parts: string[] } | null = null;
  const table = new TableWriter();
  const write = (text: string) => (table.inCell() ? table.text(text) : out.push(text));
  const emit = (text: string) => (heading ? heading.parts.push(text) : write(text));
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf("<", i);
    countWork((lt < 0 ? html.length : lt) - i + 1);
    if (lt < 0) {
      emit(html.slice(i));
      break;
    }
    emit(html.slice(i, lt));
    if (html.startsWith("<!--", lt)) {
      const end = html.indexOf("-->", lt + 4);
      countWork((end < 0 ? html.length : end) - lt);
      if (end < 0) break;
      i = end + 3;
      continue;
    }
    // As in a browser, '<' starts a tag only before a letter, '/', '!' or '?' ("a < b" is text).
    if (!TAG_START.test(html[lt + 1] ?? "")) {
      emit("<");
      i = lt + 1;
      continue;
    }
    const gt = html.indexOf(">", lt + 1);
    countWork((gt < 0 ? html.length : gt) - lt);
    // No '>' after this '<' means none after any later one either: the rest is text.
    if (gt < 0) {
      emit(html.slice(lt));
      break;
    }
    i = gt + 1;
    const inside = html.slice(lt + 1, gt);
    const name = TAG_NAME.exec(inside)?.[1]?.toLowerCase() ?? "";
    const closing = inside.startsWith("/");
    if (!closing && HIDDEN.has(name)) {
      const close = new RegExp(`</${name}>`, "gi");
      close.lastIndex = i;
      const found = close.exec(html);
      countWork((found ? found.index : html.length) - i);
      if (!found) break;
      i = close.lastIndex;
      continue;
    }
    const level = /^h[1-6]$/.test(name) ? Number(name[1]) : 0;
    if (heading) {
      if (closing && level === heading.level) {
        const title = heading.parts.join("").replace(/\s+/g, " ").trim();
        heading = null;
        write(table.inCell() ? ` ${title} ` : `\n\n${"#".repeat(level)} ${title}\n\n`);
      }
      continue;
    }
    if (name === "table" || name === "tr" || name === "td" || name === "th") {
      const markdown = table.tag(name, closing);
      if (markdown) out.push(`\n\n${markdown}\n\n`);
    } else if (level > 0 && !closing) heading = { level, parts: [] };
    else if (name === "li" && !closing) write(table.inCell() ? " " : "\n- ");
    else if (name === "br") write(table.inCell() ? " " : "\n");
    else if (BLOCKS.has(name)) write(table.inCell() ? " " : "\n\n");
  }
  // A heading never closed is kept as plain text, as the tags around it are dropped.
  if (heading) write(heading.parts.join(""));
  const unclosed = table.end();
  if (unclosed) out.push(`\n\n${unclosed}\n\n`);
  const text = decodeEntities(out.join(""));
  countWork(text.length);
  return text
    .replace(/[ \t]+/g, " ")
    .replace(/\n[ \t]+/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * Collects an HTML table's rows and cells and writes it as a Markdown table, its first row the
 * header. Tables nested in a cell count only their depth: their rows and cells read as the outer
 * cell's text.
 */
class TableWriter {
  #depth = 0;
  #rows: string[][] = [];
  #row: string[] | null = null;
  #cell: string[] | null = null;

  inCell(): boolean {
    return this.#cell !== null;
  }

  text(text: string): void {
    this.#cell?.push(text);
  }

  /** Takes a table tag; returns the Markdown of an outermost table as it closes. */
  tag(name: string, closing: boolean): string | null {
    if (name === "table") {
      if (!closing) this.#depth++;
      else if (this.#depth > 0 && --this.#depth === 0) return this.end();
      if (this.#depth > 1) this.text(" ");
      return null;
    }
    if (this.#depth !== 1) {
      this.text(" ");
      return null;
    }
    if (name === "tr") {
      this.#endCell();
      if (this.#row) this.#rows.push(this.#row);
      this.#row = closing ? null : [];
    } else if (!closing) {
      this.#endCell();
      this.#row ??= [];
      this.#cell = [];
    } else this.#endCell();
    return null;
  }

  /** The table collected so far as Markdown (empty when it has no cells), and a fresh start. */
  end(): string {
    this.#endCell();
    if (this.#row) this.#rows.push(this.#row);
    const rows = this.#rows.filter((row) => row.some(Boolean));
    this.#rows = [];
    this.#row = null;
    this.#depth = 0;
    if (rows.length === 0) return "";
    // A fold, not Math.max(...rows): a spread of 100,000 rows overflows the stack.
    const width = rows.reduce((most, row) => Math.max(most, row.length), 0);
    const line = (row: string[]) => `| ${Array.from({ length: width }, (_, i) => row[i] ?? "").join(" | ")} |`;
    const [header = [], ...body] = rows;
    return [line(header), `|${" --- |".repeat(width)}`, ...body.map(line)].join("\n");
  }

  // Entities are decoded with the whole text, after the table is written.
  #endCell(): void {
    if (!this.#cell) return;
    const text = this.#cell.join("").replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();
    this.#row?.push(text);
    this.#cell = null;
  }
}
