export interface ChunkOptions {
  /** Target size in Chinese characters; other text counts three characters as one (see `weight`). */
  size: number;
  /** Characters of trailing whole sentences repeated at the start of the next chunk. */
  overlap: number;
}

export interface Chunk {
  position: number;
  headingPath: string[];
  content: string;
}

export const DEFAULT_CHUNKING: ChunkOptions = { size: 600, overlap: 100 };

const CJK_CHAR = /[\u3000-\u9fff\uff00-\uffef]/;

/**
 * The length a chunk budget counts: a CJK character is one, three other characters are one. A
 * Chinese character carries about as much as a short English word, so 600 means roughly 600
 * Chinese characters or 300 English words, and both languages get chunks of similar content.
 */
export function weight(text: string): number {
  let cjk = 0;
  for (const char of text) if (CJK_CHAR.test(char)) cjk++;
  return cjk + (text.length - cjk) / 3;
}

/** The longest prefix of `text` whose weight fits in `size`. */
function prefixWithin(text: string, size: number): string {
  let total = 0;
  let end = 0;
  for (const char of text) {
    total += CJK_CHAR.test(char) ? 1 : 1 / 3;
    if (total > size) break;
    end += char.length;
  }
  return text.slice(0, Math.max(end, 1));
}

const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
// A sentence ends at Chinese end punctuation, at ! ? ; or at a full stop followed by a space (so
// "1308.84" stays whole), closing quotes included, or at a line break.
const SENTENCE_END = /([。！？；!?]+[”’"')）]*|\.+[”’"')）]*(?=\s|$))/g;

/**
 * Splits markdown-flavoured text into chunks that never cross a heading, break only between
 * sentences (a sentence longer than `size` is cut), and overlap by whole trailing sentences.
 */
export function chunkText(text: string, options: ChunkOptions = DEFAULT_CHUNKING): Chunk[] {
  const chunks: Chunk[] = [];
  const stack: { level: number; title: string }[] = [];
  let body: string[] = [];
  const flush = () => {
    const section = body.join("\n").trim();
    body = [];
    if (!section) return;
    for (const content of packSentences(sentencesOf(section, options.size), options)) {
      chunks.push({ position: chunks.length, headingPath: stack.map((h) => h.title), content });
    }
  };
  for (const line of text.split("\n")) {
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      const level = (heading[1] as string).length;
      while (stack.length > 0 && (stack.at(-1) as { level: number }).level >= level) stack.pop();
      stack.push({ level, title: (heading[2] as string).trim() });
    } else {
      body.push(line);
    }
  }
  flush();
  return chunks;
}

function sentencesOf(section: string, size: number): string[] {
  const out: string[] = [];
  for (const paragraph of section.split(/\n\s*\n/)) {
    for (const raw of paragraph.replace(SENTENCE_END, "$1\n").split("\n")) {
      const sentence = raw.replace(/\s+/g, " ").trim();
      if (!sentence) continue;
      out.push(...splitLong(sentence, size));
    }
    out.push("");
  }
  return out;
}

/** A sentence longer than a chunk is cut at clause marks (，、,:;), and only then wherever it must. */
function splitLong(sentence: string, size: number): string[] {
  if (weight(sentence) <= size) return [sentence];
  const out: string[] = [];
  let current = "";
  for (const clause of sentence.match(/[^，、,:：]+[，、,:：]*/g) ?? [sentence]) {
    if (current && weight(current) + weight(clause) > size) {
      out.push(current);
      current = "";
    }
    current += clause;
    while (weight(current) > size) {
      const head = prefixWithin(current, size);
      out.push(head);
      current = current.slice(head.length);
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
