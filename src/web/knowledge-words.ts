// The words of the settings' knowledge section (documents, uploads, ingestion), apart from i18n.ts
// so that the first load does not carry them: only the settings chunk imports this file. The server
// keeps a failed document's reason as a code and its figures (`FileProblemReason`); they are worded here.

import type { FileProblemReason } from "../shapes.ts";

type Lang = "zh" | "en";
type Words = Readonly<Record<Lang, string>>;

const zh = {
  knowledge: "知识库文件",
  knowledgeLead: "上传车间自己的资料（PDF、Word、Excel、CSV、图片），读取完成后对话和 /mcp 就能据此回答，并注明出处。",
  base: "知识库",
  noBases: "还没有文档知识库。",
  dropHere: "把文件拖到这里，或",
  choose: "选择文件",
  formats:
    "PDF（20 MB 以内）、Word .docx、Excel .xlsx/.xls、CSV（10 MB 以内）、Markdown/文本/HTML（2 MB 以内）、图片（5 MB 以内，需正式部署的文字识别）",
  uploading: (name: string) => `正在上传 ${name}…`,
  noDocuments: "这个知识库还没有文件。",
  chunks: (n: number) => `${n} 段`,
  progressLabel: (name: string) => `${name} 的进度`,
  uploadFailed: (name: string) => `${name} 没有上传成功：`,
  unchanged: (name: string) => `${name} 和已有的一样，没有变化。`,
  replacementRefused: "新版本没有读取成功，仍在使用上一个版本：",
};

const en: typeof zh = {
  knowledge: "Knowledge files",
  knowledgeLead:
    "Upload the workshop's own material (PDF, Word, Excel, CSV, photos). Once read, the chat and /mcp answer from it and cite it.",
  base: "Knowledge base",
  noBases: "No document knowledge base yet.",
  dropHere: "Drop files here, or",
  choose: "choose files",
  formats:
    "PDF (up to 20 MB), Word .docx, Excel .xlsx/.xls, CSV (up to 10 MB), Markdown/text/HTML (up to 2 MB), photos (up to 5 MB, read by the production deployment's OCR)",
  uploading: (name: string) => `Uploading ${name}…`,
  noDocuments: "No files in this knowledge base yet.",
  chunks: (n: number) => `${n} passages`,
  progressLabel: (name: string) => `Progress of ${name}`,
  uploadFailed: (name: string) => `${name} was not uploaded: `,
  unchanged: (name: string) => `${name} is the same as the one stored; nothing changed.`,
  replacementRefused: "The new version could not be read; the previous one is still in use: ",
};

/** The knowledge section's words in `lang`. */
export function knowledgeWords(lang: Lang): typeof zh {
  return lang === "zh" ? zh : en;
}

/** Where a document stands: being read by the ingestion job, searchable, or refused. */
export const DOCUMENT_STATUS_WORDS = {
  queued: { zh: "排队中", en: "queued" },
  parsing: { zh: "读取中", en: "reading" },
  indexing: { zh: "建索引中", en: "indexing" },
  processing: { zh: "处理中", en: "processing" },
  ready: { zh: "可搜索", en: "searchable" },
  failed: { zh: "失败", en: "failed" },
} as const satisfies Record<string, Words>;

/** What an ingestion's progress counts. */
export const PROGRESS_UNIT_WORDS = {
  pages: { zh: "页", en: "pages" },
  rows: { zh: "行", en: "rows" },
  chunks: { zh: "段", en: "passages" },
} as const satisfies Record<string, Words>;

// Why a file could not be read, with its figures as {name}: a failed document keeps the reason and
// the figures, and each person reads them in their own language.
const FILE_PROBLEM_WORDS: Readonly<Record<FileProblemReason, Words>> = {
  unsupported_type: {
    zh: "不支持这种文件（.{extension}）。请上传 PDF、Word（.docx）、Excel（.xlsx/.xls）、CSV、Markdown、文本或图片。",
    en: "This kind of file (.{extension}) is not supported. Upload PDF, Word (.docx), Excel (.xlsx/.xls), CSV, Markdown, text or a photo.",
  },
  legacy_format: {
    zh: "这是旧格式或演示文件（.{extension}）：请用 Word、WPS 或 Excel 另存为 .docx、.xlsx 或 PDF 后再上传。",
    en: "This is an old or presentation format (.{extension}): save it as .docx, .xlsx or PDF and upload that.",
  },
  too_large: {
    zh: "文件太大：这种文件最多 {limit_mib} MB。请拆分后再上传。",
    en: "The file is too large: at most {limit_mib} MiB for this kind of file. Split it and upload the parts.",
  },
  too_many_pages: {
    zh: "PDF 有 {pages} 页，超过上限 {limit} 页。请拆分后再上传。",
    en: "The PDF has {pages} pages, more than the {limit} allowed. Split it and upload the parts.",
  },
  too_many_rows: {
    zh: "表格超过 {limit} 行。请拆分后再上传。",
    en: "The sheet has more than {limit} rows. Split it and upload the parts.",
  },
  expands_too_much: {
    zh: "文件解压后超过 {limit_mib} MB 或包含太多部件，可能已损坏或被篡改。",
    en: "The file unpacks to more than {limit_mib} MiB or holds too many parts: it may be damaged or crafted.",
  },
  encrypted: {
    zh: "文件设置了密码。请去掉密码后重新保存，再上传。",
    en: "The file is password-protected. Remove the password, save it again and upload that.",
  },
  damaged: {
    zh: "文件无法读取：可能已损坏，或不是真正的 {kind} 文件。",
    en: "The file could not be read: it may be damaged, or not really a {kind} file.",
  },
  no_text: {
    zh: "文件里没有可读的文字。",
    en: "The file contains no readable text.",
  },
  needs_ocr: {
    zh: "这是图片或扫描件，需要文字识别（OCR）。本服务没有配置识别模型：请在正式部署中开启 OCR，或上传文字版（PDF、Word、文本）。",
    en: "This is a photo or a scan and needs text recognition (OCR). No OCR model is configured here: enable it in the production deployment, or upload a text version (PDF, Word, text).",
  },
  ocr_failed: {
    zh: "文字识别没有成功，请稍后再试，或上传文字版。",
    en: "Text recognition failed; try again later, or upload a text version.",
  },
  index_failed: {
    zh: "建索引时出错，文件没有保存。请重新上传。",
    en: "Indexing failed and nothing was stored. Upload the file again.",
  },
};

/**
 * Why a file could not be read, in the person's language, its figures filled in; an unknown reason
 * (from a newer server) reads as a damaged file.
 *
 * @example fileProblemText("too_many_pages", { pages: 2400, limit: 1000 }, "zh") // "PDF 有 2400 页，超过上限 1000 页。…"
 */
export function fileProblemText(reason: string, params: Readonly<Record<string, unknown>>, lang: Lang): string {
  const words = Object.hasOwn(FILE_PROBLEM_WORDS, reason)
    ? FILE_PROBLEM_WORDS[reason as FileProblemReason]
    : FILE_PROBLEM_WORDS.damaged;
  return words[lang].replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole === "{kind}" ? "" : whole,
  );
}
