import { AppError } from "../errors.ts";
import { countWork } from "../work-count.ts";
import { locationLine } from "./chunker.ts";
import { csvDelimiter, parseCsv } from "./csv.ts";
import { problem } from "./file-problem.ts";
import type { ParsedDocument, Progress } from "./parsed-document.ts";
import { decodeText, withoutControls } from "./text-decoding.ts";

/** Rows a workbook or CSV file may hold, all sheets together: a 20,000-row price list with room to spare. */
export const MAX_ROWS = 100_000;
/** Columns read per row, and characters per cell: what a person reads as a table, not a data dump. */
export const MAX_COLUMNS = 64;
export const MAX_CELL_CHARS = 2_000;

/** A sheet as rows of cell text, the first row its header. */
export interface Sheet {
  name: string;
  rows: string[][];
  /**
   * Each row's number as the spreadsheet shows it (1-based), where blank rows were left out of
   * `rows`: what a report on a row names it by (a CSV file's are its rows' positions).
   */
  lines?: number[];
}

/**
 * A workbook's sheets as text: each sheet a `##` section named by the sheet, each row under it one
 * line that names every value by its column's header, with the row's own name (its first text
 * cell) as the subject: the price list's `锁眼 | 0.23 | 每件 7 个眼` under `工序 | 单价（元） | 说明`
 * reads `锁眼的单价（元）：0.23，锁眼的说明：每件 7 个眼。`. A row is so a passage of its own, found by
 * the way people ask (锁眼的单价是多少) and quoted whole, and a big sheet is chunked between rows
 * like any text. (Kept as a Markdown table, a row's values sit a line away from the header that
 * names them, and a question naming the row and the column matched neither line well: measured,
 * 0.14 against 0.99 for this form.) Empty rows and columns are left out, and a sheet with no cells.
 * Progress counts rows.
 */
export function sheetsToDocument(
  title: string,
  sheets: Sheet[],
  { onProgress, cite = true }: { onProgress?: Progress | undefined; cite?: boolean } = {},
): ParsedDocument {
  const total = sheets.reduce((sum, sheet) => sum + sheet.rows.length, 0);
  if (total > MAX_ROWS) {
    throw new AppError("payload_too_large", `The file has more than ${MAX_ROWS} rows; split it.`, {
      details: problem("too_many_rows", { limit: MAX_ROWS }),
    });
  }
  const parts: string[] = [];
  let done = 0;
  for (const sheet of sheets) {
    const rows = sheet.rows.map((row) => row.slice(0, MAX_COLUMNS).map(cellText)).filter((row) => row.some(Boolean));
    done += sheet.rows.length;
    onProgress?.({ unit: "rows", done, total });
    if (rows.length === 0) continue;
    const [header = [], ...body] = rows;
    // A CSV file is its one sheet: a citation names the file alone.
    if (cite) parts.push(locationLine({ sheet: sheet.name }));
    parts.push(`## ${sheet.name}`, "");
    if (body.length === 0) parts.push(`${header.filter(Boolean).join("，")}。`);
    for (const [i, row] of body.entries()) parts.push(rowSentence(header, row, i + 2));
    parts.push("");
  }
  if (parts.length === 0) {
    throw new AppError("unparseable_document", "The file has no cells with text.", { details: problem("no_text") });
  }
  return { title, text: parts.join("\n"), extent: { unit: "rows", total } };
}

const CJK = /[\u3400-\u9fff]/;
const NUMBER = /^[-+]?[\d.,]+%?$/;

/**
 * One row as a sentence: its name (the first cell that is text, not a number; else `第 N 行`) and
 * each other value after its header, `名的列：值` in Chinese, `name column: value` otherwise.
 */
function rowSentence(header: string[], row: string[], line: number): string {
  const keyAt = row.findIndex((cell) => cell && !NUMBER.test(cell));
  const key = keyAt >= 0 ? (row[keyAt] as string) : `第 ${line} 行`;
  const chinese = CJK.test(key) || header.some((name) => CJK.test(name));
  const named = row.flatMap((value, i) => {
    if (i === keyAt || !value) return [];
    const column = header[i] || columnName(i);
    return [chinese ? `${key}的${column}：${value}` : `${key} ${column}: ${value}`];
  });
  if (named.length === 0) return chinese ? `${key}。` : `${key}.`;
  return chinese ? `${named.join("，")}。` : `${named.join("; ")}.`;
}

/** A cell as part of one line: no line breaks, at most `MAX_CELL_CHARS`. */
function cellText(value: string): string {
  countWork(value.length);
  return withoutControls(value.slice(0, MAX_CELL_CHARS)).replace(/\s+/g, " ").trim();
}

/** A column with no header is named as Excel names it: A, B, …, AA. */
function columnName(index: number): string {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/**
 * A workbook's sheets (.xlsx, whose zip `precheckFile` or the FAQ import has checked for bombs, or .xls), read by SheetJS with the
 * cells as Excel shows them (0.23 stays 0.23, a date reads as a date), at most `MAX_ROWS` + 1 rows a
 * sheet, so an over-long sheet is refused without reading it all.
 */
export async function workbookSheets(bytes: Uint8Array): Promise<Sheet[]> {
  const XLSX = await import("@e965/xlsx");
  let book: import("@e965/xlsx").WorkBook;
  try {
    book = XLSX.read(bytes, { type: "array", dense: true, cellFormula: false, cellHTML: false, sheetRows: MAX_ROWS + 1 });
  } catch (error) {
    // SheetJS says a workbook is encrypted only in its message.
    const encrypted = error instanceof Error && /password/i.test(error.message);
    throw new AppError(
      "unparseable_document",
      encrypted
        ? "The Excel file is password-protected; remove the password."
        : "The file is not a readable Excel file: it may be damaged.",
      { details: encrypted ? problem("encrypted") : problem("damaged", { kind: "Excel" }) },
    );
  }
  return book.SheetNames.map((name) => {
    const sheet = book.Sheets[name];
    // Blank rows are read (and then left out) so that each row keeps its number in the sheet.
    const read = sheet ? XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, defval: "", blankrows: true }) : [];
    const first = sheet?.["!ref"] ? XLSX.utils.decode_range(sheet["!ref"]).s.r + 1 : 1;
    const rows: string[][] = [];
    const lines: number[] = [];
    read.forEach((row, i) => {
      const cells = row.map((cell) => (cell === null || cell === undefined ? "" : String(cell)));
      if (!cells.some((cell) => cell !== "")) return;
      rows.push(cells);
      lines.push(first + i);
    });
    return { name, rows, lines };
  });
}

/** A CSV file's rows (UTF-8 with or without BOM, UTF-16, or GB18030/GBK), one sheet named by the file. */
export function csvSheet(name: string, bytes: Uint8Array): Sheet {
  const text = decodeText(bytes);
  try {
    return { name, rows: parseCsv(text, csvDelimiter(text)) };
  } catch {
    throw new AppError("unparseable_document", "The CSV file ends inside a quoted field: a closing quote is missing.", {
      details: problem("damaged", { kind: "CSV" }),
    });
  }
}
