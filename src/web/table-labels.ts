// Labels each cell of an answer's tables with its column's title, so that on a phone a table can be
// read as a card per row (styles.css shows each cell as "title value"): the columns that carry the
// answer (数量, 金额, 实发) are then on the screen, with no sideways scrolling to find them.

/** Sets `data-label` on every body cell of the tables under `root` to its column's header text. */
export function labelTableCells(root: HTMLElement): void {
  for (const table of root.querySelectorAll("table")) {
    const titles = [...table.querySelectorAll("thead th")].map((th) => th.textContent?.trim() ?? "");
    for (const row of table.querySelectorAll("tbody tr")) {
      [...row.children].forEach((cell, index) => {
        const title = titles[index] ?? "";
        if ((cell as HTMLElement).dataset.label !== title) (cell as HTMLElement).dataset.label = title;
      });
    }
  }
}
