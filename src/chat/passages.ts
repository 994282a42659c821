/** A retrieved passage as the chat cites it: where it comes from and what it says. */
export interface Passage {
  title: string;
  heading: string;
  content: string;
}

const OPEN = "<passages>";
const CLOSE = "</passages>";
const HEADER = /^\[(\d+)\] (.*)$/;

/** Where a passage comes from, as a person reads it: `title › heading`. */
export function citationOf(passage: Passage): string {
  // A document's first heading is usually its title, and an FAQ entry's heading its question: said once.
  const heading = passage.heading.startsWith(`${passage.title} > `)
    ? passage.heading.slice(passage.title.length + 3)
    : passage.heading === passage.title
      ? ""
      : passage.heading;
  return heading ? `${passage.title} › ${heading}` : passage.title;
}

/**
 * The passages as a block of the model's instructions: numbered `[n] title › heading` lines, each
 * followed by its text, between markers the offline model reads them back by.
 */
export function passagesBlock(passages: Passage[]): string {
  const body = passages.map((p, i) => `[${i + 1}] ${citationOf(p)}\n${p.content.replace(/\n\[(\d+)\] /g, "\n($1) ")}`);
  return `${OPEN}\n${body.join("\n\n")}\n${CLOSE}`;
}

/** The passages a `passagesBlock` holds, read back from instructions. */
export function readPassagesBlock(instructions: string): Passage[] {
  const start = instructions.indexOf(OPEN);
  const end = instructions.indexOf(CLOSE, start);
  if (start < 0 || end < 0) return [];
  const passages: Passage[] = [];
  for (const line of instructions.slice(start + OPEN.length, end).split("\n")) {
    const header = HEADER.exec(line);
    if (header) {
      const source = header[2] ?? "";
      const cut = source.indexOf(" › ");
      passages.push({
        title: cut < 0 ? source : source.slice(0, cut),
        heading: cut < 0 ? "" : source.slice(cut + 3),
        content: "",
      });
    } else if (passages.length > 0) {
      const last = passages[passages.length - 1] as Passage;
      last.content = last.content ? `${last.content}\n${line}` : line;
    }
  }
  return passages.map((p) => ({ ...p, content: p.content.trim() }));
}
