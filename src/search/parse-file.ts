import { AppError } from "../errors.ts";
import type { SearchBackends } from "./backends.ts";
import { docxToDocument } from "./docx-text.ts";
import { problem } from "./file-problem.ts";
import { type BinaryKind, type FileKind, isBinaryKind } from "./file-types.ts";
import type { Ocr } from "./ocr.ts";
import { parseDocument } from "./parse.ts";
import type { ParsedDocument, Progress } from "./parsed-document.ts";
import { pdfToDocument } from "./pdf-text.ts";
import { csvSheet, sheetsToDocument, workbookSheets } from "./sheet-text.ts";
import { decodeText } from "./text-decoding.ts";
import { checkOfficeZip } from "./zip-guard.ts";

const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((byte, i) => bytes[i] === byte);

// What each kind's bytes start with; a file whose bytes are not its kind's is refused before parsing.
const MAGIC: Partial<Record<BinaryKind, (bytes: Uint8Array) => boolean>> = {
  // "%PDF-" within the first kilobyte, as readers allow.
  pdf: (bytes) => new TextDecoder("latin1").decode(bytes.subarray(0, 1024)).includes("%PDF-"),
  image: (bytes) =>
    startsWith(bytes, [0x89, 0x50, 0x4e, 0x47]) ||
    startsWith(bytes, [0xff, 0xd8, 0xff]) ||
    (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && new TextDecoder("latin1").decode(bytes.subarray(8, 12)) === "WEBP"),
};

const MEDIA_TYPES: [number[], string][] = [
  [[0x89, 0x50, 0x4e, 0x47], "image/png"],
  [[0xff, 0xd8, 0xff], "image/jpeg"],
];

/**
 * What can be told of a file without parsing it, checked in the upload's request even when a job
 * will read it: its bytes are its kind's (a PDF starts `%PDF-`, an image with its signature), and a
 * .docx or .xlsx is a zip that inflates within bounds and is not password-protected (zip-guard.ts,
 * bounded time). A file failing this is refused at once (4xx), before any job or stored byte.
 */
export function precheckFile(filename: string, kind: BinaryKind, bytes: Uint8Array): void {
  if (MAGIC[kind] && !MAGIC[kind](bytes)) {
    throw new AppError(
      "unparseable_document",
      `'${filename}' is not really a ${kind === "image" ? "PNG, JPEG or WebP image" : "PDF"} file.`,
      {
        details: problem("damaged", { kind: kind === "image" ? "image" : "PDF" }),
      },
    );
  }
  if (kind === "docx") checkOfficeZip(bytes, "Word");
  if (kind === "xlsx") checkOfficeZip(bytes, "Excel");
}

/**
 * Reads a file's bytes into the Markdown-flavoured text the chunker takes, with the parser of its
 * kind: PDF (pdf.js through unpdf), Word (mammoth), Excel (SheetJS), CSV (Weft's own, any Chinese
 * encoding), photos (OCR). Parsers load on first use, so a Worker that never reads a PDF never
 * evaluates pdf.js. Everything a file can be refused for is an `AppError` carrying a `problem`.
 */
export async function parseFile({
  filename,
  kind,
  bytes,
  ocr,
  onProgress,
}: {
  filename: string;
  kind: BinaryKind;
  bytes: Uint8Array;
  ocr: Ocr;
  onProgress?: Progress | undefined;
}): Promise<ParsedDocument> {
  const title = filename.replace(/\.[^.]+$/, "") || filename;
  precheckFile(filename, kind, bytes);
  switch (kind) {
    case "pdf":
      return pdfToDocument(bytes, title, { ocr, onProgress });
    case "docx":
      return docxToDocument(bytes, title);
    case "xlsx":
    case "xls":
      return sheetsToDocument(title, await workbookSheets(bytes), { onProgress });
    case "csv":
      return sheetsToDocument(title, [csvSheet(title, bytes)], { onProgress, cite: false });
    case "image": {
      ocr.require("photo");
      const mediaType = MEDIA_TYPES.find(([magic]) => startsWith(bytes, magic))?.[1] ?? "image/webp";
      const text = await ocr.read({ bytes, mediaType });
      if (!/[\p{L}\p{N}]/u.test(text)) {
        throw new AppError("unparseable_document", `No text was recognised in '${filename}'.`, { details: problem("no_text") });
      }
      return { title, text };
    }
  }
}

/** Reads an upload into text: a text kind as it is (decoded when it came as bytes), a file by its parser. */
export async function parseContent({
  filename,
  kind,
  content,
  backends,
  onProgress,
}: {
  filename: string;
  kind: FileKind;
  content: string | Uint8Array;
  backends: SearchBackends;
  onProgress?: Progress | undefined;
}): Promise<ParsedDocument> {
  if (!isBinaryKind(kind)) {
    const text = typeof content === "string" ? content : decodeText(content);
    return parseDocument(filename, text, kind);
  }
  return parseFile({ filename, kind, bytes: content as Uint8Array, ocr: backends.ocr, onProgress });
}
