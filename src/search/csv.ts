import { AppError } from "../errors.ts";

/**
 * RFC 4180 CSV in one pass (quoted fields may hold commas, quotes doubled, and line breaks), so
 * its cost is linear in the input. A byte-order mark is dropped; CRLF and LF both end a row.
 * `delimiter` is a comma unless the file uses tabs or semicolons (`csvDelimiter`).
 */
export function parseCsv(text: string, delimiter = ","): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endField = () => {
    row.push(field);
    field = "";
  };
  const endRow = () => {
    endField();
    if (row.length > 1 || row[0] !== "") rows.push(row);
    row = [];
  };
  for (; i < text.length; i++) {
    const char = text[i] as string;
    if (quoted) {
      if (char !== '"') field += char;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (char === '"' && field === "") quoted = true;
    else if (char === delimiter) endField();
    else if (char === "\n") endRow();
    else if (char !== "\r") field += char;
  }
  if (quoted) throw new AppError("invalid_input", "The CSV ends inside a quoted field: a closing quote is missing.");
  if (field !== "" || row.length > 0) endRow();
  return rows;
}

/**
 * The delimiter of a CSV file by its first line: a tab or a semicolon where it has more of those
 * than commas (Excel in some locales, tab-separated exports), a comma otherwise.
 */
export function csvDelimiter(text: string): string {
  const end = text.indexOf("\n");
  const first = end < 0 ? text : text.slice(0, end);
  const count = (char: string) => first.split(char).length - 1;
  const commas = count(",");
  if (count("\t") > commas) return "\t";
  return count(";") > commas ? ";" : ",";
}
