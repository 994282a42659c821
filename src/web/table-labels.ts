// Labels each cell of an answer's tables with its column's title, so that on a phone a table can be
// read as a card per row (styles.css shows each cell as "title value"): the columns that carry the
// answer (数量, 金额, 实发) are then on the screen, with no sideways scrolling to find them.
// A long cell of words (a customer's full company name, a note) is marked too: it may wrap, where
// a date, an amount, a count or a style's name stays whole, so a wide table fits a desktop's width
// instead of scrolling.

/** More characters than a style's name (B02 女式连衣裙): words that may wrap inside their cell. */
const LONG_CELL = 10;
/** Figures: a date, an amount, a count, a percentage, a time. */
const FIGURES = /^[\d\s¥$€,.%:/+-]*$/;

/** Sets `data-label` on every body cell of the tables under `root` to its column's header text, and `data-wraps` on a cell of words. */
export function labelTableCells(root: HTMLElement): void {
  for (const table of root.querySelectorAll("table")) {
    const titles = [...table.querySelectorAll("thead th")].map((th) => th.textContent?.trim() ?? "");
    for (const row of table.querySelectorAll("tbody tr")) {
      [...row.children].forEach((cell, index) => {
        const title = titles[index] ?? "";
        const { dataset, textContent } = cell as HTMLElement;
        if (dataset.label !== title) dataset.label = title;
        const text = textContent?.trim() ?? "";
        const wraps = text.length > LONG_CELL && !FIGURES.test(text);
        if (wraps !== "wraps" in dataset) {
          if (wraps) dataset.wraps = "";
          else delete dataset.wraps;
        }
      });
    }
  }
}
