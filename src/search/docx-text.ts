import { AppError } from "../errors.ts";
import { problem } from "./file-problem.ts";
import { firstTitle } from "./headings.ts";
import { htmlToText } from "./parse.ts";
import type { ParsedDocument } from "./parsed-document.ts";
import { withoutControls } from "./text-decoding.ts";

// Word names its built-in heading styles in English inside the file whatever its language, but WPS
// and some templates write the Chinese names; mammoth's default map knows the English ones.
const STYLE_MAP = [
  ...[1, 2, 3, 4, 5, 6].map((n) => `p[style-name='标题 ${n}'] => h${n}:fresh`),
  "p[style-name='标题'] => h1:fresh",
  "p[style-name='Title'] => h1:fresh",
];

/**
 * A Word file (.docx) as Markdown, by mammoth (headings by style, paragraphs, lists, tables as
 * Markdown tables; pictures left out); `precheckFile` has checked the zip for bombs. Its title is its first
 * level-1 heading, or the file's name.
 */
export async function docxToDocument(bytes: Uint8Array, fallbackTitle: string): Promise<ParsedDocument> {
  const mammoth = await import("mammoth");
  const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  // mammoth's browser build reads `arrayBuffer`, its Node build `buffer`; bundlers pick either.
  const input = { arrayBuffer, buffer: Buffer.from(arrayBuffer) };
  let html: string;
  try {
    const result = await mammoth.convertToHtml(input, {
      styleMap: STYLE_MAP,
      ignoreEmptyParagraphs: true,
      convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: "" })),
    });
    html = result.value;
  } catch {
    throw new AppError("unparseable_document", "The file is not a readable Word (.docx) file: it may be damaged.", {
      details: problem("damaged", { kind: "Word" }),
    });
  }
  const text = withoutControls(htmlToText(html));
  if (!/[\p{L}\p{N}]/u.test(text)) {
    throw new AppError("unparseable_document", "The Word file contains no text.", { details: problem("no_text") });
  }
  return { title: firstTitle(text) ?? fallbackTitle, text };
}
