import { AppError } from "../errors.ts";
import { csvDelimiter, parseCsv } from "./csv.ts";
import { workbookSheets } from "./sheet-text.ts";
import { checkOfficeZip } from "./zip-guard.ts";

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

/** FAQ entries from a workbook's first sheet, its first row naming the columns as a CSV file's does. */
export async function faqEntriesFromWorkbook(bytes: Uint8Array, kind: "xlsx" | "xls"): Promise<CsvFaqEntry[]> {
  if (kind === "xlsx") checkOfficeZip(bytes, "Excel");
  const [first] = await workbookSheets(bytes);
  return faqEntriesFromRows(first?.rows ?? [], "sheet");
}
