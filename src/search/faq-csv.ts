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

const COLUMNS = new Map<string, "question" | "similar_questions" | "answer">([
  ["question", "question"],
  ["standard_question", "question"],
  ["标准问题", "question"],
  ["问题", "question"],
  ["similar_questions", "similar_questions"],
  ["相似问题", "similar_questions"],
  ["answer", "answer"],
  ["答案", "answer"],
]);

/** One FAQ entry as a CSV row gives it, before validation. */
export interface CsvFaqEntry {
  question: string;
  similar_questions: string[];
  answer: string;
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

/**
 * FAQ entries from CSV with a header row naming the columns `question`, `similar_questions` and
 * `answer` (or 标准问题, 相似问题, 答案). Similar questions are separated by `|` or line breaks.
 */
export function faqEntriesFromCsv(text: string): CsvFaqEntry[] {
  return faqEntriesFromRows(parseCsv(text, csvDelimiter(text)), "CSV");
}

/** FAQ entries from rows whose first names the columns, as a CSV file or a spreadsheet's first sheet gives them. */
export function faqEntriesFromRows(table: string[][], source: "CSV" | "sheet"): CsvFaqEntry[] {
  const [header, ...rows] = table;
  if (!header) throw new AppError("invalid_input", `The ${source} is empty; its first row must name the columns.`);
  const index = new Map<string, number>();
  header.forEach((name, i) => {
    const column = COLUMNS.get(name.trim().toLowerCase());
    if (column && !index.has(column)) index.set(column, i);
  });
  if (!index.has("question") || !index.has("answer")) {
    throw new AppError(
      "invalid_input",
      `The ${source}'s header must name a 'question' and an 'answer' column (similar_questions is optional).`,
    );
  }
  const cell = (row: string[], column: string) => {
    const i = index.get(column);
    return i === undefined ? "" : (row[i] ?? "");
  };
  return rows.map((row) => ({
    question: cell(row, "question").trim(),
    similar_questions: cell(row, "similar_questions")
      .split(/[|\n]/)
      .map((q) => q.trim())
      .filter(Boolean),
    answer: cell(row, "answer").trim(),
  }));
}
