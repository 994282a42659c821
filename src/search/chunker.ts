import { countWork } from "../work-count.ts";
import { parseHeading } from "./headings.ts";

export interface ChunkOptions {
  /** Target size in Chinese characters; other text counts three characters as one (see `weight`). */
  size: number;
  /** Characters of trailing whole sentences repeated at the start of the next chunk. */
  overlap: number;
}

/** Where a chunk sits in its file, when the file has places a citation can name. */
export interface ChunkLocation {
  /** The PDF page the chunk is on (1-based). */
  page?: number;
  /** The spreadsheet's sheet the chunk's rows are from. */
  sheet?: string;
}

export interface Chunk {
  position: number;
  headingPath: string[];
  content: string;
  location: ChunkLocation;
}

// A line that tells the chunker where the text after it is (a PDF's page, a workbook's sheet). It
// starts with a form feed, which the text parsers remove from what people upload, so only a file
// parser writes one.
const LOCATION_MARK = "\f";

/** The line a file parser writes before the text of a page or a sheet. */
export function locationLine(location: ChunkLocation): string {
  return `${LOCATION_MARK}${JSON.stringify(location)}`;
}

function readLocation(line: string): ChunkLocation {
  let read: ChunkLocation;
  try {
    read = JSON.parse(line.slice(LOCATION_MARK.length)) as ChunkLocation;
  } catch {
    return {};
  }
  const { page, sheet } = read ?? {};
  return { ...(typeof page === "number" ? { page } : {}), ...(typeof sheet === "string" ? { sheet } : {}) };
}

const isTableRow = (line: string | undefined) => line?.trimStart().startsWith("|") === true;
// `| --- | :-: |`: pipes, dashes, colons and spaces only, one class so the test is linear.
const isTableSeparator = (line: string | undefined) =>
  line?.includes("-") === true && line.includes("|") && /^[\s|:-]+$/.test(line);

export const DEFAULT_CHUNKING: ChunkOptions = { size: 600, overlap: 100 };

const CJK_CHAR = /[\u3000-\u9fff\uff00-\uffef]/;

/**
 * The length a chunk budget counts: a CJK character is one, three other characters are one. A
 * Chinese character carries about as much as a short English word, so 600 means roughly 600
 * Chinese characters or 300 English words, and both languages get chunks of similar content.
 */
export function weight(text: string): number {
  return thirds(text) / 3;
}

// CJK_CHAR by code unit: every range is in the BMP, so no surrogate is ever CJK. Cheaper than a
// regex test per character, which dominated chunking time on large uploads.
const isCjkUnit = (unit: number) => (unit >= 0x3000 && unit <= 0x9fff) || (unit >= 0xff00 && unit <= 0xffef);

/** Three times `weight`, an integer, so that weights can be added and subtracted exactly. */
function thirds(text: string): number {
  countWork(text.length);
  let cjk = 0;
  for (let i = 0; i < text.length; i++) if (isCjkUnit(text.charCodeAt(i))) cjk++;
  return text.length + 2 * cjk;
}

/** The longest prefix of `text` whose weight fits in `size`; visits only that prefix. */
function prefixWithin(text: string, size: number): string {
  let total = 0;
  let end = 0;
  while (end < text.length) {
    const unit = text.charCodeAt(end);
    // A surrogate pair is one character: never cut between its halves.
    const width = unit >= 0xd800 && unit <= 0xdbff && end + 1 < text.length ? 2 : 1;
    total += isCjkUnit(unit) ? 3 : width;
    if (total > size * 3) break;
    end += width;
  }
  countWork(end + 1);
  return text.slice(0, Math.max(end, 1));
}

// A sentence ends at Chinese end punctuation, at ! ? ; or at a full stop followed by a space (so
// "1308.84" stays whole), closing quotes included, or at a line break. The lookbehind lets a run
// of full stops be tried from its first stop only: tried from each, a long run of '.' not followed
// by a space took quadratic time.
const SENTENCE_END = /([。！？；!?]+[”’"')）]*|(?<!\.)\.+[”’"')）]*(?=\s|$))/g;

/**
 * Splits markdown-flavoured text into chunks that never cross a heading, break only between
 * sentences (a sentence longer than `size` is cut), and overlap by whole trailing sentences. A
 * Markdown table is cut between rows, each of its chunks starting with the table's header, so a
 * row is always read under the names of its columns. A location line (`locationLine`) starts a new
 * chunk, so each chunk lies on one page or sheet and says which.
 */
export function chunkText(text: string, options: ChunkOptions = DEFAULT_CHUNKING): Chunk[] {
  const chunks: Chunk[] = [];
  const stack: { level: number; title: string }[] = [];
  let location: ChunkLocation = {};
  let body: string[] = [];
  const push = (content: string) =>
    chunks.push({ position: chunks.length, headingPath: stack.map((h) => h.title), content, location });
  const flush = () => {
    const section = body.join("\n").trim();
    body = [];
    if (!section) return;
    for (const content of packSentences(sentencesOf(section, options.size), options)) push(content);
  };
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.startsWith(LOCATION_MARK)) {
      flush();
      location = readLocation(line);
      continue;
    }
    const heading = line.startsWith("#") ? parseHeading(line) : null;
    if (heading) {
      flush();
      while (stack.length > 0 && (stack.at(-1) as { level: number }).level >= heading.level) stack.pop();
      stack.push(heading);
    } else if (isTableRow(line) && isTableSeparator(lines[i + 1])) {
      flush();
      let end = i + 2;
      while (isTableRow(lines[end])) end++;
      countWork(end - i);
      for (const content of packRows(line.trim(), (lines[i + 1] as string).trim(), lines.slice(i + 2, end), options.size)) {
        push(content);
      }
      i = end - 1;
    } else {
      body.push(line);
    }
  }
  flush();
  return chunks;
}

/**
 * A table's rows in chunks of about `size`, each under the header and its separator. A row too long
 * for a chunk of its own is cut like a long sentence, each piece under the header too.
 */
function packRows(header: string, separator: string, rows: string[], size: number): string[] {
  const head = `${header}\n${separator}`;
  const headWeight = weight(head);
  const budget = Math.max(size - headWeight, size / 2);
  const out: string[] = [];
  let current: string[] = [];
  let length = 0;
  for (const raw of rows) {
    const row = raw.trim();
    const rowWeight = weight(row);
    if (current.length > 0 && length + rowWeight > budget) {
      out.push(`${head}\n${current.join("\n")}`);
      current = [];
      length = 0;
    }
    if (rowWeight > budget) {
      for (const piece of splitLong(row, Math.floor(budget))) out.push(`${head}\n${piece}`);
      continue;
    }
    current.push(row);
    length += rowWeight;
  }
  if (current.length > 0 || out.length === 0) out.push(`${head}\n${current.join("\n")}`.trimEnd());
  return out;
}

function sentencesOf(section: string, size: number): string[] {
  const out: string[] = [];
  countWork(section.length);
  for (const paragraph of section.split(/\n\s*\n/)) {
    countWork(paragraph.length);
    for (const raw of paragraph.replace(SENTENCE_END, "$1\n").split("\n")) {
      const sentence = raw.replace(/\s+/g, " ").trim();
      if (!sentence) continue;
      out.push(...splitLong(sentence, size));
    }
    out.push("");
  }
  return out;
}

/**
 * A sentence longer than a chunk is cut at clause marks (，、,:;), and only then wherever it must.
 * The weight of the text not yet emitted is kept as a running total, so each character is weighed
 * a bounded number of times (re-weighing the rest after each cut was quadratic on 1 MB).
 */
function splitLong(sentence: string, size: number): string[] {
  const limit = size * 3;
  if (thirds(sentence) <= limit) return [sentence];
  const out: string[] = [];
  let current = "";
  let currentThirds = 0;
  for (const clause of sentence.match(/[^，、,:：]+[，、,:：]*/g) ?? [sentence]) {
    const clauseThirds = thirds(clause);
    if (current && currentThirds + clauseThirds > limit) {
      out.push(current);
      current = "";
      currentThirds = 0;
    }
    current += clause;
    currentThirds += clauseThirds;
    while (currentThirds > limit) {
      const head = prefixWithin(current, size);
      out.push(head);
      current = current.slice(head.length);
      currentThirds -= thirds(head);
    }
  }
  if (current) out.push(current);
  return out;
}

/** Joins sentences: no space between two CJK sentences, one elsewhere; paragraph breaks as newlines. */
function joinSentences(parts: string[]): string {
  let text = "";
  for (const part of parts) {
    if (part === "") text = `${text.trimEnd()}\n`;
    else if (text === "" || text.endsWith("\n") || (CJK_CHAR.test(text.at(-1) as string) && CJK_CHAR.test(part[0] as string)))
      text += part;
    else text += ` ${part}`;
  }
  return text.trim();
}

/** Packs sentences ("" marks a paragraph break) into chunks, each starting with the previous one's tail. */
function packSentences(sentences: string[], { size, overlap }: ChunkOptions): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let length = 0;
  let fresh = 0;
  for (const sentence of sentences) {
    if (sentence !== "" && length + weight(sentence) > size && fresh > 0) {
      out.push(joinSentences(current));
      const tail: string[] = [];
      let tailLength = 0;
      for (let i = current.length - 1; i >= 0; i--) {
        const part = current[i] as string;
        if (part === "") continue;
        if (tailLength + weight(part) > overlap) break;
        tail.unshift(part);
        tailLength += weight(part);
      }
      current = tail;
      length = tailLength;
      fresh = 0;
    }
    current.push(sentence);
    if (sentence !== "") {
      length += weight(sentence);
      fresh++;
    }
  }
  if (fresh > 0) out.push(joinSentences(current));
  return out;
}
