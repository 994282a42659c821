// Writes src/search/cjk-radicals.ts: which ideograph a CJK radical code point stands for in a PDF's
// text layer. A PDF printer (Chromium, with Noto CJK or PingFang) writes each glyph's ToUnicode entry
// as the first code point the font maps to it, and these fonts map the radicals (⻔ U+2ED4, ⽶ U+2F76)
// to the very glyph of the ideograph (门, 米): so "门襟" comes out as "⻔襟", which nobody searches
// for, and NFKC does not fold the CJK Radicals Supplement block. The table is read from the font's
// own cmap, the inverse of what the printer did: a radical maps to the one ideograph sharing its
// glyph in the Simplified Chinese face. Run: node scripts/cjk-radicals.ts [path to NotoSansCJK-Regular.ttc]
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./lib.ts";

const path = process.argv[2] ?? "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc";
const file = readFileSync(path);
const u16 = (o: number) => file.readUInt16BE(o);
const u32 = (o: number) => file.readUInt32BE(o);

/** The offset of each face's table directory in the collection. */
const faces = file.toString("latin1", 0, 4) === "ttcf" ? Array.from({ length: u32(8) }, (_, i) => u32(12 + 4 * i)) : [0];

function table(face: number, tag: string): number {
  const count = u16(face + 4);
  for (let i = 0; i < count; i++) {
    const record = face + 12 + 16 * i;
    if (file.toString("latin1", record, record + 4) === tag) return u32(record + 8);
  }
  throw new Error(`no ${tag} table`);
}

/** The face's full name (name id 4, Windows Unicode). */
function faceName(face: number): string {
  const name = table(face, "name");
  const count = u16(name + 2);
  const strings = name + u16(name + 4);
  for (let i = 0; i < count; i++) {
    const r = name + 6 + 12 * i;
    if (u16(r) === 3 && u16(r + 6) === 4) {
      const bytes = file.subarray(strings + u16(r + 10), strings + u16(r + 10) + u16(r + 8));
      return String.fromCharCode(...Array.from({ length: bytes.length / 2 }, (_, k) => bytes.readUInt16BE(2 * k)));
    }
  }
  return "";
}

/** Code point → glyph id from the format 12 subtable of `cmap`. */
function codepoints(face: number): Map<number, number> {
  const cmap = table(face, "cmap");
  const map = new Map<number, number>();
  for (let i = 0; i < u16(cmap + 2); i++) {
    const sub = cmap + u32(cmap + 4 + 8 * i + 4);
    if (u16(sub) !== 12) continue;
    for (let g = 0; g < u32(sub + 12); g++) {
      const group = sub + 16 + 12 * g;
      for (let c = u32(group); c <= u32(group + 4); c++) map.set(c, u32(group + 8) + c - u32(group));
    }
    return map;
  }
  throw new Error("no format 12 cmap");
}

const face = faces.find((f) => faceName(f) === "Noto Sans CJK SC");
if (face === undefined) throw new Error("no Noto Sans CJK SC face");
const glyphs = codepoints(face);
const byGlyph = new Map<number, number[]>();
for (const [code, glyph] of glyphs) {
  if (code >= 0x4e00 && code <= 0x9fff) byGlyph.set(glyph, [...(byGlyph.get(glyph) ?? []), code]);
}
const pairs: [number, number][] = [];
for (let radical = 0x2e80; radical <= 0x2fdf; radical++) {
  const glyph = glyphs.get(radical);
  const ideographs = glyph === undefined ? [] : (byGlyph.get(glyph) ?? []);
  if (ideographs.length === 1) pairs.push([radical, ideographs[0] as number]);
}
const hex = (n: number) => n.toString(16).toUpperCase();
const body = pairs.map(([r, i]) => `  [0x${hex(r)}, 0x${hex(i)}], // ${String.fromCodePoint(r)} → ${String.fromCodePoint(i)}`);
writeFileSync(
  join(ROOT, "src/search/cjk-radicals.ts"),
  `// Written by scripts/cjk-radicals.ts from ${path.split("/").pop()} (Noto Sans CJK SC): do not edit by hand.

/** CJK radical code points (U+2E80–U+2FDF) and the ideograph whose glyph a PDF's text layer meant by each. */
export const RADICAL_IDEOGRAPHS: ReadonlyMap<number, number> = new Map([
${body.join("\n")}
]);
`,
);
console.log(`src/search/cjk-radicals.ts: ${pairs.length} radicals`);
