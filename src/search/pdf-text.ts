import { AppError } from "../errors.ts";
import { countWork } from "../work-count.ts";
import { locationLine } from "./chunker.ts";
import { RADICAL_IDEOGRAPHS } from "./cjk-radicals.ts";
import { problem } from "./file-problem.ts";
import type { Ocr } from "./ocr.ts";
import type { ParsedDocument, Progress } from "./parsed-document.ts";
import { encodePng } from "./png.ts";
import { withoutControls } from "./text-decoding.ts";

/** Pages a PDF may have: a 200-page process book, five times over. */
export const MAX_PAGES = 1_000;
/** Characters of text a PDF may yield: about 2,500 dense pages. */
export const MAX_PDF_CHARS = 5_000_000;

/** One line of a page, as its text items give it. */
interface Line {
  text: string;
  size: number;
  y: number;
}

/** A text item of pdf.js (`TextItem`), the fields read here. */
interface Item {
  str: string;
  transform: number[];
  width: number;
  hasEOL: boolean;
}

/**
 * A PDF's text layer as Markdown: each page's lines in the order the file draws them (reading order
 * for what word processors and browsers print), lines grouped into paragraphs by the space between
 * them, lines in a font clearly larger than the body's made headings (the largest `#`, the next
 * `##`, …), and a location line before each page so every chunk knows its page. CJK radicals that
 * printers write for ideographs (⻔ for 门) are read as the ideographs. A PDF with no text layer
 * (a scan) is read by OCR where a model is configured; a password is a 422 that says so.
 */
export async function pdfToDocument(
  bytes: Uint8Array,
  fallbackTitle: string,
  { ocr, onProgress }: { ocr: Ocr; onProgress?: Progress | undefined },
): Promise<ParsedDocument> {
  const { getDocumentProxy, extractImages } = await import("unpdf");
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js takes the buffer it is given: a copy keeps the caller's bytes readable.
    pdf = await getDocumentProxy(bytes.slice(), { disableFontFace: true, useSystemFonts: false, verbosity: 0 });
  } catch (error) {
    throw unreadable(error);
  }
  try {
    const total = pdf.numPages;
    if (total > MAX_PAGES) {
      throw new AppError("payload_too_large", `The PDF has ${total} pages; at most ${MAX_PAGES} are read. Split it.`, {
        details: problem("too_many_pages", { pages: total, limit: MAX_PAGES }),
      });
    }
    const pages: Line[][] = [];
    let characters = 0;
    for (let number = 1; number <= total; number++) {
      const page = await pdf.getPage(number).catch((error: unknown) => {
        throw unreadable(error);
      });
      const content = await page.getTextContent().catch((error: unknown) => {
        throw unreadable(error);
      });
      const lines = linesOf(content.items.filter((item) => "str" in item) as Item[]);
      page.cleanup();
      characters += lines.reduce((sum, line) => sum + line.text.length, 0);
      if (characters > MAX_PDF_CHARS) {
        throw new AppError("payload_too_large", `The PDF holds more than ${MAX_PDF_CHARS} characters of text. Split it.`, {
          details: problem("too_large", { limit_mib: 20 }),
        });
      }
      pages.push(lines);
      onProgress?.({ unit: "pages", done: number, total });
    }
    const meta = await pdf.getMetadata().catch(() => null);
    const metaTitle = (meta?.info as { Title?: unknown } | undefined)?.Title;
    const title = typeof metaTitle === "string" && metaTitle.trim() ? foldRadicals(metaTitle.trim()) : fallbackTitle;
    if (!pages.some((lines) => lines.some((line) => /[\p{L}\p{N}]/u.test(line.text)))) {
      return { title, text: await scannedPages(pdf, total, ocr, extractImages, onProgress), extent: { unit: "pages", total } };
    }
    return { title, text: markdownOf(pages), extent: { unit: "pages", total } };
  } finally {
    await pdf.loadingTask.destroy().catch(() => undefined);
  }
}

/** pdf.js's refusal as a 422: a password, or a file that is not a readable PDF. */
function unreadable(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof Error && error.name === "PasswordException") {
    return new AppError("unparseable_document", "The PDF is password-protected; remove the password and upload it again.", {
      details: problem("encrypted"),
    });
  }
  return new AppError("unparseable_document", "The file is not a readable PDF: it may be damaged.", {
    details: problem("damaged", { kind: "PDF" }),
  });
}

/** Folds CJK radicals a PDF's text layer wrote for ideographs back into the ideographs. */
export function foldRadicals(text: string): string {
  countWork(text.length);
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    out += code >= 0x2e80 && code <= 0x2fdf ? String.fromCodePoint(RADICAL_IDEOGRAPHS.get(code) ?? code) : char;
  }
  return out;
}

const isCjk = (char: string | undefined) => char !== undefined && /[\u3000-\u9fff\uff00-\uffef]/.test(char);

/** A page's text items as lines: an item ends its line when pdf.js says so or the next one starts lower. */
function linesOf(items: Item[]): Line[] {
  const lines: Line[] = [];
  let parts: string[] = [];
  let size = 0;
  let y = 0;
  let right = Number.NaN;
  const end = () => {
    const text = foldRadicals(withoutControls(parts.join("")))
      .replace(/\s+/g, " ")
      .trim();
    if (text) lines.push({ text, size, y });
    parts = [];
    size = 0;
    right = Number.NaN;
  };
  for (const item of items) {
    countWork(item.str.length + 1);
    const [a = 0, b = 0, c = 0, d = 0, x = 0, itemY = 0] = item.transform;
    const itemSize = Math.hypot(c, d) || Math.hypot(a, b);
    if (parts.length > 0 && Math.abs(itemY - y) > Math.max(size, itemSize) * 0.5) end();
    if (item.str) {
      // A gap wider than a third of the font's size between two items is a space, unless it joins CJK.
      const gap = x - right;
      const previous = parts.at(-1)?.at(-1);
      if (gap > itemSize / 3 && !isCjk(previous) && !isCjk(item.str[0])) parts.push(" ");
      if (parts.length === 0) y = itemY;
      parts.push(item.str);
      size = Math.max(size, itemSize);
      right = x + item.width;
    }
    if (item.hasEOL) end();
  }
  end();
  return lines;
}

/**
 * The pages' lines as Markdown. The body size is the size most characters are set in; a short line
 * set at least 15% larger is a heading, levelled by its size among the headings' sizes (three
 * levels at most). A gap between lines more than 1.8 times the font's size starts a paragraph.
 */
function markdownOf(pages: Line[][]): string {
  const bySize = new Map<number, number>();
  for (const line of pages.flat()) {
    const size = Math.round(line.size * 2) / 2;
    bySize.set(size, (bySize.get(size) ?? 0) + line.text.length);
  }
  const body = [...bySize.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  const isHeading = (line: Line) => line.size >= body * 1.15 && line.text.length <= 60 && !/[。；;，,]$/.test(line.text);
  const headingSizes = [
    ...new Set(
      pages
        .flat()
        .filter(isHeading)
        .map((line) => Math.round(line.size * 2) / 2),
    ),
  ].sort((a, b) => b - a);
  const out: string[] = [];
  pages.forEach((lines, index) => {
    out.push(locationLine({ page: index + 1 }));
    let paragraph: string[] = [];
    const flush = () => {
      if (paragraph.length > 0) out.push(joinLines(paragraph), "");
      paragraph = [];
    };
    let previous: Line | null = null;
    for (const line of lines) {
      if (isHeading(line)) {
        flush();
        const level = Math.min(headingSizes.indexOf(Math.round(line.size * 2) / 2) + 1, 3);
        out.push(`${"#".repeat(level)} ${line.text}`, "");
      } else {
        if (previous && !isHeading(previous) && Math.abs(previous.y - line.y) > line.size * 1.8) flush();
        paragraph.push(line.text);
      }
      previous = line;
    }
    flush();
  });
  return out.join("\n");
}

/** Lines of one paragraph, joined without a space between CJK characters. */
function joinLines(lines: string[]): string {
  let text = "";
  for (const line of lines) {
    text += text && !(isCjk(text.at(-1)) && isCjk(line[0])) ? ` ${line}` : line;
  }
  return text;
}

/** A scan's pages read by OCR, each page's images in turn; a 422 where no OCR model is configured. */
async function scannedPages(
  pdf: Parameters<typeof import("unpdf").extractImages>[0] & { numPages: number },
  total: number,
  ocr: Ocr,
  extractImages: typeof import("unpdf").extractImages,
  onProgress: Progress | undefined,
): Promise<string> {
  ocr.require("scan");
  const out: string[] = [];
  for (let number = 1; number <= total; number++) {
    out.push(locationLine({ page: number }));
    for (const image of await extractImages(pdf, number)) {
      out.push(await ocr.read({ bytes: encodePng(image), mediaType: "image/png" }), "");
    }
    onProgress?.({ unit: "pages", done: number, total });
  }
  return out.join("\n");
}
