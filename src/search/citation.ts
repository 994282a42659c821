// How a passage is named where an answer cites it: its document and where in it.

/** What a citation reads of a search result. */
export interface Citable {
  knowledge_title: string;
  knowledge_filename: string;
  heading_path: string;
  page?: number | null | undefined;
  sheet?: string | null | undefined;
}

// Files a person knows by their name (工艺单.pdf), unlike a guide written as Markdown, known by its title.
const FILE_NAME = /\.(pdf|docx|xlsx|xls|csv|png|jpe?g|webp)$/i;

/**
 * The document and the place a passage is cited by: a file by its name and, for a PDF, its page
 * (`工艺单.pdf`, `第 2 页 > 门襟`, the title heading left out); a spreadsheet's sheet is the first
 * heading of its rows (`工价表.xlsx`, `工价`); a Markdown guide by its title and heading path, as always.
 */
export function citedSource(result: Citable): { title: string; heading: string } {
  const { knowledge_title: title, heading_path: path } = result;
  if (!FILE_NAME.test(result.knowledge_filename)) return { title, heading: path };
  // The document's first heading is usually its title, which the file's name now stands for.
  const heading = path === title ? "" : path.startsWith(`${title} > `) ? path.slice(title.length + 3) : path;
  const page = typeof result.page === "number" ? `第 ${result.page} 页` : "";
  return { title: result.knowledge_filename, heading: [page, heading].filter(Boolean).join(" > ") };
}
