import { AppError } from "../errors.ts";
import { problem } from "./file-problem.ts";

/** What an upload is, by the parser that reads it. */
export type FileKind = "markdown" | "text" | "html" | "pdf" | "docx" | "xlsx" | "xls" | "csv" | "image";

/** The kinds whose uploads are bytes rather than text. */
export type BinaryKind = Exclude<FileKind, "markdown" | "text" | "html">;

const MIB = 1024 * 1024;

/**
 * The largest upload of each kind, checked before anything is parsed (413). Text formats keep the
 * 2 MiB they always had; a PDF may be a 200-page process book; the zipped Office formats are
 * bounded again when inflated (zip-guard.ts); an image goes to the OCR model whole.
 */
export const MAX_BYTES: Readonly<Record<FileKind, number>> = {
  markdown: 2 * MIB,
  text: 2 * MIB,
  html: 2 * MIB,
  pdf: 20 * MIB,
  docx: 10 * MIB,
  xlsx: 10 * MIB,
  xls: 10 * MIB,
  csv: 10 * MIB,
  image: 5 * MIB,
};

/** The most a request may carry: one file of the largest kind, with room for the form around it. */
export const MAX_REQUEST_BYTES = 21 * MIB;

const BY_EXTENSION = new Map<string, FileKind>([
  ["md", "markdown"],
  ["markdown", "markdown"],
  ["txt", "text"],
  ["text", "text"],
  ["html", "html"],
  ["htm", "html"],
  ["pdf", "pdf"],
  ["docx", "docx"],
  ["xlsx", "xlsx"],
  ["xls", "xls"],
  ["csv", "csv"],
  ["png", "image"],
  ["jpg", "image"],
  ["jpeg", "image"],
  ["webp", "image"],
]);

const BY_MEDIA_TYPE = new Map<string, FileKind>([
  ["text/markdown", "markdown"],
  ["markdown", "markdown"],
  ["text/plain", "text"],
  ["text", "text"],
  ["text/html", "html"],
  ["html", "html"],
  ["application/pdf", "pdf"],
  ["application/vnd.openxmlformats-officedocument.wordprocessingml.document", "docx"],
  ["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx"],
  ["application/vnd.ms-excel", "xls"],
  ["text/csv", "csv"],
  ["image/png", "image"],
  ["image/jpeg", "image"],
  ["image/webp", "image"],
]);

// Formats people try that Weft does not read, each with what to do instead.
const REFUSED = new Map<string, string>([
  ["doc", "an old Word 97-2003 file: open it in Word or WPS and save it as .docx"],
  ["ppt", "a PowerPoint file: save it as PDF"],
  ["pptx", "a PowerPoint file: save it as PDF"],
  ["wps", "a WPS document: save it as .docx"],
  ["et", "a WPS spreadsheet: save it as .xlsx"],
]);

export const SUPPORTED_FORMATS =
  "Markdown (.md), text (.txt), HTML, PDF, Word (.docx), Excel (.xlsx, .xls), CSV, or a photo (.png, .jpg, .webp)";

/**
 * The kind of an upload: a file name ending in a binary format's extension decides (Windows sends
 * `application/vnd.ms-excel` for every .csv, and browsers `application/octet-stream` for what they
 * do not know; the bytes are checked against the kind before parsing); otherwise the declared media
 * type, then the extension. What Weft cannot read is a 415 that says what to send instead.
 */
export function fileKindOf(filename: string, declared?: string): FileKind {
  const extension = filename.split(".").pop()?.toLowerCase() ?? "";
  const byName = BY_EXTENSION.get(extension);
  if (byName && isBinaryKind(byName)) return byName;
  const mime = declared?.split(";")[0]?.trim().toLowerCase();
  const kind = (mime ? BY_MEDIA_TYPE.get(mime) : undefined) ?? byName;
  if (kind) return kind;
  const hint = REFUSED.get(extension);
  throw new AppError(
    "unsupported_media_type",
    `'${filename}' is ${hint ?? "not a supported type"}. Upload ${SUPPORTED_FORMATS}.`,
    { details: problem(hint ? "legacy_format" : "unsupported_type", { extension }) },
  );
}

/** Whether a kind's uploads are bytes (parsed by a file parser) rather than text. */
export function isBinaryKind(kind: FileKind): kind is BinaryKind {
  return kind !== "markdown" && kind !== "text" && kind !== "html";
}

/** Refuses an upload over its kind's limit, before anything reads it (413). */
export function checkSize(filename: string, kind: FileKind, size: number): void {
  const limit = MAX_BYTES[kind];
  if (size <= limit) return;
  throw new AppError(
    "payload_too_large",
    `'${filename}' is ${(size / MIB).toFixed(1)} MiB; the limit for a ${kind} file is ${limit / MIB} MiB. Split it or upload a smaller one.`,
    { details: problem("too_large", { limit_mib: limit / MIB }) },
  );
}
