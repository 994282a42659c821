const DIGITS = new Map([
  ["零", 0],
  ["〇", 0],
  ["一", 1],
  ["二", 2],
  ["两", 2],
  ["三", 3],
  ["四", 4],
  ["五", 5],
  ["六", 6],
  ["七", 7],
  ["八", 8],
  ["九", 9],
]);
const UNITS = new Map([
  ["十", 10],
  ["百", 100],
  ["千", 1000],
  ["万", 10000],
]);

/** A number written in Arabic digits or Chinese numerals ("200", "两百", "一千二百五十", "十五"). */
export function parseNumber(text: string): number | null {
  if (/^\d{1,3}(?:,\d{3})+$|^\d+$/.test(text)) return Number(text.replaceAll(",", ""));
  let total = 0;
  let section = 0;
  let digit: number | null = null;
  for (const ch of text) {
    const d = DIGITS.get(ch);
    if (d !== undefined) {
      digit = d;
      continue;
    }
    const unit = UNITS.get(ch);
    if (unit === undefined) return null;
    if (unit === 10000) {
      total += (section + (digit ?? 0)) * unit;
      section = 0;
    } else {
      section += (digit ?? 1) * unit;
    }
    digit = null;
  }
  const value = total + section + (digit ?? 0);
  return value > 0 ? value : null;
}

const QUANTITY = /(\d{1,3}(?:,\d{3})+|\d+|[零〇一二两三四五六七八九十百千万]+)\s*(?:件|pcs\b|pieces?\b)/i;

/** A count of pieces ("200件", "两百件", "150 pieces"). */
export function findQuantity(text: string): number | null {
  const match = QUANTITY.exec(text);
  return match?.[1] ? parseNumber(match[1]) : null;
}
