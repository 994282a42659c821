import { describe, expect, it } from "vitest";
import { parseCsv } from "../../src/search/csv.ts";
import { faqEntriesFromCsv } from "../../src/search/faq-csv.ts";

describe("CSV parsing", () => {
  it("reads quoted fields with commas, doubled quotes and line breaks, CRLF or LF, and drops a BOM", () => {
    expect(parseCsv('\ufeffa,b\r\n"x, y","say ""hi"""\n"two\nlines",z\n')).toEqual([
      ["a", "b"],
      ["x, y", 'say "hi"'],
      ["two\nlines", "z"],
    ]);
  });

  it("refuses a quoted field that never closes", () => {
    expect(() => parseCsv('a,b\n"open,x')).toThrow(/closing quote/);
  });

  it("stays linear on a long unbroken line", () => {
    const rows = parseCsv(`${"a,".repeat(200_000)}b`);
    expect(rows[0]).toHaveLength(200_001);
  });
});

describe("FAQ entries from CSV", () => {
  it("maps English or Chinese headers, splitting similar questions on | and line breaks", () => {
    const csv = '标准问题,相似问题,答案\n怎么新建订单,"创建订单|下单\n开新单",在订单页面点新建订单\n';
    expect(faqEntriesFromCsv(csv)).toEqual([
      { question: "怎么新建订单", similar_questions: ["创建订单", "下单", "开新单"], answer: "在订单页面点新建订单" },
    ]);
  });

  it("refuses a header without question and answer columns", () => {
    expect(() => faqEntriesFromCsv("q,a\nx,y")).toThrow(/'question' and an 'answer'/);
  });
});
