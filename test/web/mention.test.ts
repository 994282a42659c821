import { describe, expect, it } from "vitest";
import { filterByName, findMention, MAX_MENTION_QUERY, removeMention } from "../../src/web/mention.ts";

describe("finding the @query at the caret", () => {
  it("reads the query between an @ at the start and the caret", () => {
    expect(findMention("@质量", 3)).toEqual({ start: 0, query: "质量" });
  });

  it("reads an @ after a space, and the empty query right after typing @", () => {
    expect(findMention("看看 @", 4)).toEqual({ start: 3, query: "" });
    expect(findMention("ask @proc about", 9)).toEqual({ start: 4, query: "proc" });
  });

  it("takes the full-width ＠ that Chinese keyboards type", () => {
    expect(findMention("问 ＠工艺", 5)).toEqual({ start: 2, query: "工艺" });
  });

  it("ignores an @ inside a word, such as an email address", () => {
    expect(findMention("boss@example.com", 16)).toBeNull();
  });

  it("closes once whitespace follows the query", () => {
    expect(findMention("@质量 手册", 6)).toBeNull();
  });

  it("only looks at the text before the caret", () => {
    expect(findMention("abc @kb", 3)).toBeNull();
  });

  it("gives up past the longest query instead of scanning the whole text", () => {
    const long = `@${"字".repeat(MAX_MENTION_QUERY + 5)}`;
    expect(findMention(long, long.length)).toBeNull();
    expect(findMention(`@${"字".repeat(MAX_MENTION_QUERY)}`, MAX_MENTION_QUERY + 1)?.query).toHaveLength(MAX_MENTION_QUERY);
  });

  it("clamps a caret outside the text", () => {
    expect(findMention("@a", 99)).toEqual({ start: 0, query: "a" });
    expect(findMention("@a", -1)).toBeNull();
  });
});

describe("filtering knowledge bases for the picker", () => {
  const kbs = [
    { id: "1", name: "质量手册" },
    { id: "2", name: "Process Guide" },
    { id: "3", name: "质量 FAQ" },
    { id: "__proto__", name: "constructor" },
  ];

  it("matches names case-insensitively and leaves out chosen ones", () => {
    expect(filterByName(kbs, "质量", new Set(["3"])).map((k) => k.id)).toEqual(["1"]);
    expect(filterByName(kbs, "process", new Set()).map((k) => k.id)).toEqual(["2"]);
  });

  it("lists everything for an empty query, up to the limit", () => {
    expect(filterByName(kbs, "", new Set(), 2)).toHaveLength(2);
  });

  it("treats hostile names and ids as plain text", () => {
    expect(filterByName(kbs, "constructor", new Set()).map((k) => k.id)).toEqual(["__proto__"]);
    expect(filterByName(kbs, "", new Set(["__proto__"]))).toHaveLength(3);
  });
});

describe("removing the @query after a pick", () => {
  it("cuts the @ and the query and puts the caret where the @ was", () => {
    expect(removeMention("问 @质 今天", 2, 4)).toEqual({ text: "问  今天", caret: 2 });
  });
});
