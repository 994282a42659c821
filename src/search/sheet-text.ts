import { AppError } from "../errors.ts";
import { countWork } from "../work-count.ts";
import { locationLine } from "./chunker.ts";
import { csvDelimiter, parseCsv } from "./faq-csv.ts";
import { problem } from "./file-problem.ts";
import type { ParsedDocument, Progress } from "./parsed-document.ts";
import { decodeText, withoutControls } from "./text-decoding.ts";
import { checkOfficeZip } from "./zip-guard.ts";

/** Rows a workbook or CSV file may hold, all sheets together: a 20,000-row price list with room to spare. */
export const MAX_ROWS = 100_000;
/** Columns read per row, and characters per cell: what a person reads as a table, not a data dump. */
export const MAX_COLUMNS = 64;
export const MAX_CELL_CHARS = 2_000;

/** A sheet as rows of cell text, the first row its header. */
export interface Sheet {
  name: string;
  rows: string[][];
}

/**
 * A workbook's sheets as Markdown: each sheet a `##` section named by the sheet, its rows one table
 * under the header row, so that the chunker cuts it between rows and repeats the header in every
 * chunk (`锁眼 | 0.23 | 每件 7 个眼` is read under `工序 | 单价（元） | 说明`). Empty rows and
 * columns are left out; a sheet with no cells is left out. Progress counts rows.
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
    const width = rows.reduce((most, row) => Math.max(most, lastFilled(row) + 1), 0);
    const [header = [], ...body] = rows;
    const headerCells = Array.from({ length: width }, (_, i) => header[i] || columnName(i));
    const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? "").join(" | ")} |`;
    parts.push(
      // A CSV file is its one sheet: a citation names the file alone.
      cite ? locationLine({ sheet: sheet.name }) : "",
      `## ${sheet.name}`,
      "",
      line(headerCells),
      `|${" --- |".repeat(width)}`,
      ...body.map(line),
      "",
    );
  }
  if (parts.length === 0) {
    throw new AppError("unparseable_document", "The file has no cells with text.", { details: problem("no_text") });
  }
  return { title, text: parts.join("\n"), extent: { unit: "rows", total } };
}

/** A cell as one line of a Markdown table: no line breaks, no bare `|`, at most `MAX_CELL_CHARS`. */
function cellText(value: string): string {
  countWork(value.length);
  return withoutControls(value.slice(0, MAX_CELL_CHARS))
    .replace(/\s+/g, " ")
    .replace(/\|/g, "\\|")
    .trim();
}

function lastFilled(row: string[]): number {
  for (let i = row.length - 1; i >= 0; i--) if (row[i]) return i;
  return -1;
}

/** A column with no header is named as Excel names it: A, B, …, AA. */
function columnName(index: number): string {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/**
 * A workbook's sheets (.xlsx after the zip is checked for bombs, or .xls), read by SheetJS with the
 * cells as Excel shows them (0.23 stays 0.23, a date reads as a date), at most `MAX_ROWS` + 1 rows a
 * sheet, so an over-long sheet is refused without reading it all.
 */
export async function workbookSheets(bytes: Uint8Array, kind: "xlsx" | "xls"): Promise<Sheet[]> {
  if (kind === "xlsx") checkOfficeZip(bytes, "Excel");
  const XLSX = await import("@e965/xlsx");
  let book: import("@e965/xlsx").WorkBook;
  try {
    book = XLSX.read(bytes, { type: "array", dense: true, cellFormula: false, cellHTML: false, sheetRows: MAX_ROWS + 1 });
  } catch (error) {
    // SheetJS says a workbook is encrypted only in its message.
    const encrypted = error instanceof Error && /password/i.test(error.message);
    throw new AppError(
      "unparseable_document",
      encrypted ? "The Excel file is password-protected; remove the password." : "The file is not a readable Excel file: it may be damaged.",
      { details: encrypted ? problem("encrypted") : problem("damaged", { kind: "Excel" }) },
    );
  }
  return book.SheetNames.map((name) => {
    const sheet = book.Sheets[name];
    const rows = sheet
      ? XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, defval: "", blankrows: false })
      : [];
    return { name, rows: rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? "" : String(cell)))) };
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
