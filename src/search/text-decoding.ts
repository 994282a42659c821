import { countWork } from "../work-count.ts";

/**
 * The text of a file saved by Excel, Notepad or WPS: UTF-8 (with or without a byte-order mark),
 * UTF-16 with its mark, and otherwise GB18030, the superset of GBK and GB2312 that Chinese Windows
 * writes by default ("ANSI"). Bytes that are valid UTF-8 are read as UTF-8: GBK text of any length
 * is almost never valid UTF-8, while UTF-8 read as GBK would silently turn into other characters.
 */
export function decodeText(bytes: Uint8Array): string {
  countWork(bytes.length);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder("utf-8").decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder("gb18030").decode(bytes);
  }
}

// C0 controls but tab and line feed, DEL, and C1 controls: never text, and a form feed would read
// as a location line to the chunker.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this pattern's purpose
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Text a parser extracted, without control characters (a line feed and a tab stay). */
export function withoutControls(text: string): string {
  countWork(text.length);
  return text.replace(CONTROLS, "");
}
