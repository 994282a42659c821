import { describe, expect, it } from "vitest";
import { bestMatch, coverage, matchText, withParts } from "../../src/consult/text-match.ts";
import { chunkText } from "../../src/search/chunker.ts";
import { firstTitle, parseHeading } from "../../src/search/headings.ts";
import { htmlToText, parseDocument } from "../../src/search/parse.ts";
import { queryTerms, terms } from "../../src/search/segment.ts";
import { csvSheet, sheetsToDocument } from "../../src/search/sheet-text.ts";
import { workCount } from "../../src/work-count.ts";

const KB = 1024;

/** `unit` repeated to `bytes` characters, then `tail`: the shapes that made the old parsers stall. */
const fill = (unit: string, bytes: number, tail = "") => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes) + tail;

/**
 * Adversarial inputs, each a function of its size. Each was slow before: a heading line of spaces
 * (cubic regex), runs of '.' not followed by a space, long text without punctuation (quadratic
 * `splitLong`), unclosed tags, comments and scripts (a lazy regex tried from every '<'), long
 * character references, and long runs of spaces before a non-"or" word.
 */
const INPUTS: Record<string, (bytes: number) => string> = {
  "heading line of spaces": (n) => `#${fill(" ", n, "x")}`,
  "heading line of spaces, no title": (n) => `## ${fill(" ", n)}`,
  "heading line with a long run of inner spaces": (n) => `# a${fill(" ", n, "b")}`,
  "run of full stops": (n) => fill(".", n, "a"),
  "latin without punctuation": (n) => fill("abcdefghij", n),
  "chinese without punctuation": (n) => fill("裁剪缝纫熨烫包装", n),
  "clause marks only": (n) => fill("，", n),
  "newline then spaces": (n) => `a\n${fill(" ", n, "b")}`,
  "many headings": (n) => fill("# h\n", n),
  "blank paragraphs": (n) => fill("字\n\n", n),
  "unclosed tags": (n) => fill("<", n),
  "unclosed comments": (n) => fill("<!--", n),
  "unclosed scripts": (n) => fill("<script>", n),
  "unclosed headings": (n) => fill("<h1>字", n),
  "unclosed titles": (n) => fill("<title", n),
  "tags with long attributes": (n) => `<p ${fill("a", n)}>`,
  "long character reference": (n) => `&#x${fill("1", n)};字`,
  "many character references": (n) => fill("&#x110000;&amp", n),
  "spaces before a word": (n) => fill(" ", n, "x or y"),
  "markdown table": (n) => `| 工序 | 单价 |\n| --- | --- |\n${fill("| 锁眼 | 0.23 |\n", n)}`,
  "a table row of pipes": (n) => `| a |\n| --- |\n${fill("|", n)}`,
  "a table row without breaks": (n) => `| a |\n| --- |\n| ${fill("裁剪缝纫熨烫包装", n)} |`,
  "table cells": (n) => `<table>${fill("<tr><td>字", n)}`,
  "nested tables": (n) => fill("<table><tr><td>", n),
  "csv commas": (n) => `a,b\n${fill(",", n)}`,
  "csv quotes": (n) => `a,b\n${fill('"', n)}`,
  "csv short rows": (n) => `工序,单价\n${fill("锁眼,0.23\n", n)}`,
  "csv one long cell": (n) => `工序,说明\n锁眼,${fill("裁剪缝纫熨烫包装", n)}`,
};

/** The work counted while `run` processes `input`, plus whatever size `run` itself reports. */
function workOf(run: (input: string) => number | undefined, input: string): number {
  const before = workCount();
  const reported = run(input) ?? 0;
  return workCount() - before + reported;
}

const MARKDOWN = [
  "markdown table",
  "a table row of pipes",
  "a table row without breaks",
  "heading line of spaces",
  "heading line of spaces, no title",
  "heading line with a long run of inner spaces",
  "run of full stops",
  "latin without punctuation",
  "chinese without punctuation",
  "clause marks only",
  "newline then spaces",
  "many headings",
  "blank paragraphs",
];
const HTML = [
  "table cells",
  "nested tables",
  "unclosed tags",
  "unclosed comments",
  "unclosed scripts",
  "unclosed headings",
  "unclosed titles",
  "tags with long attributes",
  "long character reference",
  "many character references",
  "run of full stops",
];
const HEADINGS = [
  "heading line of spaces",
  "heading line of spaces, no title",
  "heading line with a long run of inner spaces",
  "many headings",
  "newline then spaces",
];
const WORDS = [
  "latin without punctuation",
  "chinese without punctuation",
  "spaces before a word",
  "clause marks only",
  "many character references",
];

/** Each parser, how its work is measured, and the adversarial shapes that reach it. */
const PARSERS: Record<string, { run: (input: string) => number | undefined; shapes: string[] }> = {
  chunkText: { run: (input) => chunkText(input).length, shapes: MARKDOWN },
  "parseDocument (markdown)": { run: (input) => void parseDocument("a.md", `字${input}`, "markdown"), shapes: MARKDOWN },
  "parseDocument (text)": { run: (input) => void parseDocument("a.txt", `字${input}`, "text"), shapes: ["newline then spaces"] },
  "parseDocument (html)": { run: (input) => void parseDocument("a.html", `字${input}`, "html"), shapes: HTML },
  htmlToText: { run: (input) => void htmlToText(input), shapes: HTML },
  // The CSV reader has no counter of its own: the input read, and the rows' text it hands on, measure it.
  "csvSheet + sheetsToDocument": {
    run: (input) => {
      const sheet = csvSheet("t", new TextEncoder().encode(input));
      try {
        return sheetsToDocument("t", [sheet]).text.length + input.length;
      } catch {
        // More rows than a sheet may hold: refused after reading, in bounded work.
        return input.length;
      }
    },
    shapes: ["csv commas", "csv quotes", "csv short rows", "csv one long cell"],
  },
  parseHeading: { run: (input) => void parseHeading(input), shapes: HEADINGS },
  firstTitle: { run: (input) => void firstTitle(input), shapes: HEADINGS },
  // segment.ts has no counter of its own: the terms it returns, with the input read, measure its work.
  terms: { run: (input) => terms(input).length + input.length, shapes: WORDS },
  queryTerms: { run: (input) => queryTerms(input).length + input.length, shapes: WORDS },
  "matchText + coverage": { run: (input) => void coverage(matchText(input), "跳针 or 断线"), shapes: WORDS },
  withParts: { run: (input) => void withParts(input), shapes: [...WORDS, "run of full stops"] },
  bestMatch: {
    run: (input) =>
      void bestMatch(
        input,
        Array.from({ length: 50 }, (_, i) => ({ value: i, phrases: [`选项${i}`, `option ${i}`, input.slice(0, 64)] })),
      ),
    shapes: WORDS,
  },
};

describe("bounded work per request: every parser is linear in its input", () => {
  for (const [parser, { run, shapes }] of Object.entries(PARSERS)) {
    it(`${parser}: doubling any adversarial input at most roughly doubles the work`, { timeout: 120_000 }, () => {
      for (const shape of shapes) {
        const make = INPUTS[shape] as (bytes: number) => string;
        for (const size of [64 * KB, 1024 * KB]) {
          const small = workOf(run, make(size));
          const large = workOf(run, make(2 * size));
          const label = `${parser} on ${shape} at ${size / KB} KB: ${small} then ${large}`;
          expect(large, label).toBeLessThanOrEqual(2.2 * small + 1000);
          // And the work is a small multiple of the input, not merely growing slowly at this size.
          expect(small, label).toBeLessThanOrEqual(40 * size);
        }
      }
    });
  }

  it("counts the chunks of a long unpunctuated text in proportion to its length", { timeout: 60_000 }, () => {
    const at = (n: number) => chunkText(fill("裁剪缝纫熨烫包装", n)).length;
    expect(at(2048 * KB)).toBeLessThanOrEqual(2 * at(1024 * KB) + 1);
    expect(at(1024 * KB)).toBeGreaterThan(1000);
  });
});
