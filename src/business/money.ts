/** Cents (分) as yuan text with two decimals, e.g. 2350 -> "23.50", -5 -> "-0.05". Exact: no floats. */
export function yuan(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** An amount as the tools report it: integer cents and the same in yuan. */
export function money(cents: number): { cents: number; yuan: string } {
  return { cents, yuan: yuan(cents) };
}

/** A figure with its thousands grouped, as people read it: 2752 → "2,752"; "1691.60" → "1,691.60". */
export function grouped(figure: string | number): string {
  const [whole = "", fraction] = String(figure).split(".");
  const withCommas = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return fraction === undefined ? withCommas : `${withCommas}.${fraction}`;
}
