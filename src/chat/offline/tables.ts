/** One cell of a reply's table: its text, and whether it is a figure (right-aligned). */
export interface Cell {
  text: string;
  figure: boolean;
}

export { grouped } from "../../business/money.ts";

// A cell's text inside a Markdown table: no pipe ends the cell early, no line break ends the row.
function cellText(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
}

/**
 * A Markdown table (GFM) of rows of cells by column key: columns in the order they first appear,
 * those empty in every row left out, figures right-aligned, and `total` (cells by the same keys) as
 * the last row under `totalLabel`.
 */
export function markdownTable(
  rows: Map<string, Cell>[],
  headings: (key: string) => string,
  total: { label: string; cells: Map<string, Cell> } | null,
): string {
  const keys: string[] = [];
  for (const row of [...rows, ...(total ? [total.cells] : [])])
    for (const [key, cell] of row) if (cell.text !== "" && !keys.includes(key)) keys.push(key);
  // The totals row's label goes in the first column with no total of its own; a column is added
  // in front when every column has one.
  const labelAt = total ? keys.findIndex((key) => !total.cells.has(key)) : 0;
  if (total && labelAt < 0) keys.unshift("");
  const at = Math.max(labelAt, 0);
  const figure = (key: string) => key !== "" && rows.every((row) => row.get(key)?.figure ?? true);
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  const body = rows.map((row) => line(keys.map((key) => cellText(row.get(key)?.text ?? ""))));
  if (total) {
    const cells = keys.map((key) => cellText(total.cells.get(key)?.text ?? ""));
    cells[at] = `**${cellText(total.label)}**`;
    body.push(line(cells));
  }
  const head = line(keys.map((key) => (key === "" ? " " : cellText(headings(key)))));
  return [head, line(keys.map((key) => (figure(key) ? "---:" : "---"))), ...body].join("\n");
}
