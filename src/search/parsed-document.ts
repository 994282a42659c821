/** What progress counts while a file is read: pages of a PDF, rows of a sheet. */
export interface ProgressReport {
  unit: "pages" | "rows";
  done: number;
  total: number;
}

/** Called by a parser as it goes; the ingestion job records it for the person watching. */
export type Progress = (report: ProgressReport) => void;

export interface ParsedDocument {
  title: string;
  /**
   * Markdown-flavoured text: headings as `#` lines, blocks separated by blank lines, tables as
   * Markdown tables, and location lines (chunker.ts) before each page or sheet.
   */
  text: string;
  /** What the file held, by the unit its progress counts; absent for text formats. */
  extent?: { unit: ProgressReport["unit"]; total: number };
}
