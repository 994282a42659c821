import { AppError } from "../errors.ts";
import type { ImportProblem } from "../shapes.ts";

// A sheet as workshops keep their lists: a title or a note above, a header row naming the columns
// in their own words (姓名, 手机号, 单价（元）), a 序号 column, blank rows between groups, and a
// group's style written once, on its first row (a merged cell). The files are read by the file
// parsers of the knowledge bases (src/search/sheet-text.ts); this finds the table in their rows.

/** A sheet's rows as the file parsers give them, with each row's number as the spreadsheet shows it. */
export interface ImportSheet {
  name: string;
  rows: string[][];
  /** The row number (1-based) of each row, where blank rows were left out; else its position. */
  lines?: number[];
}

/** One data row of a table: where it is, and its cells by column. */
export interface TableRow<C extends string> {
  sheet: string;
  row: number;
  cells: Record<C, string>;
}

/** Data rows an import takes at most, all sheets together: a workshop's whole list with room to spare. */
export const MAX_IMPORT_ROWS = 2_000;
/** Rows above the header that are searched for it (a title, a date, a note). */
const HEADER_SEARCH = 10;

/** A header cell as compared: no spaces, no unit in brackets (单价（元） is 单价), lower case. */
export function headerKey(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/[（(][^）)]*[）)]/g, "")
    .replace(/\s+/g, "")
    .toLowerCase();
}

/**
 * The rows of every sheet that has a header naming the `required` columns (in any of each
 * column's `names`), keyed by column; sheets without one are named in `skipped`. A fully empty
 * row is left out; `fillDown` columns take the value above when empty (a group's merged cell).
 */
export function tableRows<C extends string>(
  sheets: readonly ImportSheet[],
  columns: Readonly<Record<C, readonly string[]>>,
  { required, fillDown = [] }: { required: readonly C[]; fillDown?: readonly C[] },
): { rows: TableRow<C>[]; skipped: string[]; found: C[] } {
  const keys = Object.keys(columns) as C[];
  const names = new Map<string, C>();
  for (const column of keys) for (const name of columns[column]) names.set(headerKey(name), column);
  const rows: TableRow<C>[] = [];
  const skipped: string[] = [];
  const found = new Set<C>();
  for (const sheet of sheets) {
    const at = sheet.rows.slice(0, HEADER_SEARCH).findIndex((row) => {
      const here = new Set(row.map((cell) => names.get(headerKey(cell))));
      return required.every((column) => here.has(column));
    });
    if (at < 0) {
      skipped.push(sheet.name);
      continue;
    }
    const index = new Map<C, number>();
    (sheet.rows[at] ?? []).forEach((cell, i) => {
      const column = names.get(headerKey(cell));
      if (column !== undefined && !index.has(column)) index.set(column, i);
    });
    for (const column of index.keys()) found.add(column);
    const above = new Map<C, string>();
    for (let r = at + 1; r < sheet.rows.length; r++) {
      const raw = sheet.rows[r] ?? [];
      if (raw.every((cell) => cell.trim() === "")) continue;
      const cells = {} as Record<C, string>;
      for (const column of keys) {
        const i = index.get(column);
        let value = i === undefined ? "" : (raw[i] ?? "").trim();
        if (value === "" && fillDown.includes(column)) value = above.get(column) ?? "";
        if (value !== "") above.set(column, value);
        cells[column] = value;
      }
      if (keys.every((column) => cells[column] === "" || fillDown.includes(column))) continue;
      rows.push({ sheet: sheet.name, row: sheet.lines?.[r] ?? r + 1, cells });
      if (rows.length > MAX_IMPORT_ROWS) {
        throw new AppError("payload_too_large", `The file has more than ${MAX_IMPORT_ROWS} rows to import; split it.`);
      }
    }
  }
  return { rows, skipped, found: [...found] };
}

/** A problem of one cell, as the import's report names it. */
export function problemAt(row: { sheet: string; row: number }, column: string, message: string): ImportProblem {
  return { sheet: row.sheet, row: row.row, column, message };
}

/** Up to `n` items of a list joined for a preview line, with how many more there are. */
export function firstFew(items: readonly string[], n: number, sep = "；"): string {
  const shown = items.slice(0, n).join(sep);
  return items.length > n ? `${shown}${sep}等 ${items.length} 项` : shown;
}
