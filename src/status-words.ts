// The words for the statuses people read, in both languages, written once: the server's replies
// (the offline model's tables, an order's label, a chat's export) and the browser (confirm cards,
// tool cards, a decided card's line) all take them from here. It imports nothing, so the browser
// may import it at runtime without pulling server code into its bundle (.dependency-cruiser.cjs).

export type StatusLang = "zh" | "en";

type Words = Readonly<Record<StatusLang, string>>;

/** An order's status (`orders.status`), as the workshop guide names it. */
export const ORDER_STATUS_WORDS = {
  pending: { zh: "待生产", en: "pending" },
  in_production: { zh: "生产中", en: "in production" },
  completed: { zh: "已完成", en: "completed" },
  cancelled: { zh: "已取消", en: "cancelled" },
} as const satisfies Record<string, Words>;

/** Orders still to deliver (the `open` filter of `query_orders`). */
export const OPEN_ORDERS_WORDS: Words = { zh: "未完成", en: "open" };

/** A pending write's status (a confirm card's badge). */
export const ACTION_STATUS_WORDS = {
  pending: { zh: "待确认", en: "pending" },
  confirmed: { zh: "已确认", en: "confirmed" },
  cancelled: { zh: "已取消", en: "cancelled" },
  expired: { zh: "已过期", en: "expired" },
  failed: { zh: "失败", en: "failed" },
} as const satisfies Record<string, Words>;

// What became of a decided write, where the reply had asked to decide it.
const DECIDED_WORDS: Record<string, Words> = {
  confirmed: { zh: "已确认", en: "Confirmed" },
  cancelled: { zh: "已取消", en: "Cancelled" },
  expired: { zh: "已过期，没有写入", en: "Expired; nothing was written" },
  failed: { zh: "没有写入", en: "Not written" },
};

/**
 * The line under a prepared write asking to decide its card. Once the card is decided, the chat,
 * its history and its export show `decidedLine` in its place.
 */
export const DECIDE_LINES: Readonly<Record<StatusLang, string>> = {
  zh: "请在上面的确认卡片上点“确认”或“取消”。确认之前不会写入任何数据。",
  en: "Use Confirm or Cancel on the card above. Nothing is written until you confirm.",
};

/** The word for a status code in a table of them, or the code itself when the table has none. */
export function statusWord(table: Readonly<Record<string, Words>>, code: string, lang: StatusLang): string {
  return Object.hasOwn(table, code) ? (table[code] as Words)[lang] : code;
}

/**
 * The line that says what became of a decided card, with what the write reported when it was
 * confirmed or failed: "已确认：已登记。", "已取消。", "Expired; nothing was written.". `null` while
 * it is still pending.
 *
 * @example decidedLine("confirmed", "已登记", "zh") // "已确认：已登记。"
 */
export function decidedLine(status: string, result: string | undefined, lang: StatusLang): string | null {
  if (!Object.hasOwn(DECIDED_WORDS, status)) return null;
  const word = (DECIDED_WORDS[status] as Words)[lang];
  const told = result && (status === "confirmed" || status === "failed") ? result.replace(/[。.]$/, "") : "";
  if (lang === "zh") return told ? `${word}：${told}。` : `${word}。`;
  return told ? `${word}: ${told}.` : `${word}.`;
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
const FILE_PROBLEM_WORDS = {
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
} as const satisfies Record<string, Words>;

export type FileProblemReason = keyof typeof FILE_PROBLEM_WORDS;

/**
 * Why a file could not be read, in the person's language, its figures filled in; an unknown reason
 * (from a newer server) reads as a damaged file.
 *
 * @example fileProblemText("too_many_pages", { pages: 2400, limit: 1000 }, "zh") // "PDF 有 2400 页，超过上限 1000 页。…"
 */
export function fileProblemText(reason: string, params: Readonly<Record<string, unknown>>, lang: StatusLang): string {
  const words: Words = Object.hasOwn(FILE_PROBLEM_WORDS, reason)
    ? FILE_PROBLEM_WORDS[reason as FileProblemReason]
    : FILE_PROBLEM_WORDS.damaged;
  return words[lang].replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole === "{kind}" ? "" : whole,
  );
}
